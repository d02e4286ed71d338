import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { OpenApiDocument } from '../infra/http/openapi.js';

// ajv-formats is CommonJS: its default export is the function.
const addFormats = addFormatsModule as unknown as (ajv: Ajv2020) => Ajv2020;

type Response = {
  $ref?: string;
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: unknown }>;
};
type Operation = OpenApiDocument['paths'][string][string];

/** Headers the API answers that a document must declare where they are answered. */
const DECLARED_HEADERS = ['idempotency-replayed', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset'];
const DOCUMENT_ID = 'https://seatlink.test/docs/json';
/** Pages under /v1 that are not calls of the API: the admins' queue board (Bull Board's own pages and calls). */
const NOT_THE_API = ['/v1/admin/queues'];

/**
 * Holds an answer of the API to its own document (`/docs/json`): the operation must exist, the status must be declared
 * (its own or its class, e.g. 4XX), the content type must be one the answer declares, a JSON body must match its
 * schema (no field the schema does not name), and the headers the API adds (Idempotency-Replayed, RateLimit-*) must
 * be declared on that answer. The integration suite's client (`ApiClient`) runs it on every answer it receives.
 */
export class ApiDocumentCheck {
  private readonly ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  private readonly validators = new Map<string, ValidateFunction>();
  private readonly templates: Array<{ path: string; pattern: RegExp; params: number }>;

  constructor(private readonly document: OpenApiDocument) {
    this.ajv.addSchema({ ...document, $id: DOCUMENT_ID });
    this.templates = Object.keys(document.paths)
      .map((path) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}$`),
        params: (path.match(/\{/g) ?? []).length,
      }))
      // A literal path before a template that also matches it (`/v1/accounts/batch` before `/v1/accounts/{id}`).
      .sort((a, b) => a.params - b.params);
  }

  private static readonly loaded = new Map<string, Promise<ApiDocumentCheck | null>>();

  /** The check of the document a server at `baseUrl` serves (null when it serves none). */
  static for(baseUrl: string): Promise<ApiDocumentCheck | null> {
    let check = this.loaded.get(baseUrl);
    if (!check) {
      check = fetch(`${baseUrl}/docs/json`)
        .then(async (res) => (res.ok ? new ApiDocumentCheck((await res.json()) as OpenApiDocument) : null))
        .catch(() => null);
      this.loaded.set(baseUrl, check);
    }
    return check;
  }

  /** What in this answer the document does not declare (empty: all of it is). */
  problems(method: string, url: string, status: number, headers: Headers, text: string): string[] {
    const path = new URL(url, 'http://x').pathname;
    const what = `${method} ${path} → ${status}`;
    const template = this.templates.find((t) => t.pattern.test(path));
    const operation: Operation | undefined = template
      ? this.document.paths[template.path]?.[method.toLowerCase()]
      : undefined;
    if (!operation) {
      // Outside the API (the dashboard's pages, /docs, the wallet simulator): not the document's.
      const api = path.startsWith('/v1/') && !NOT_THE_API.some((prefix) => path.startsWith(prefix));
      return api && status !== 404 && status !== 405 ? [`${what}: no such operation`] : [];
    }
    const declared = operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`];
    if (!declared) return [`${what}: status not declared`];
    const response = this.resolve(declared);
    const problems: string[] = [];
    for (const header of DECLARED_HEADERS) {
      const named = Object.keys(response.headers ?? {}).some((h) => h.toLowerCase() === header);
      if (headers.has(header) && !named) problems.push(`${what}: header ${header} not declared`);
    }
    const mediaType = headers.get('content-type')?.split(';')[0]?.trim();
    if (!response.content) {
      if (text !== '') {
        problems.push(`${what}: a ${mediaType} body the document does not declare`);
      }
      return problems;
    }
    const content = mediaType ? response.content[mediaType] : undefined;
    if (!content) return [...problems, `${what}: content type ${mediaType} not declared`];
    if (mediaType !== 'application/json') return problems;
    const validate = this.validator(content.schema);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      return [...problems, `${what}: not JSON`];
    }
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        problems.push(`${what}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      }
    }
    return problems;
  }

  /**
   * What in a webhook delivery its document does not declare: the event type must be in the `webhooks` section, the
   * signature header as described there, the body its event's schema (no field it does not name).
   */
  deliveryProblems(signature: string | undefined, raw: string): string[] {
    let body: { type?: unknown };
    try {
      body = JSON.parse(raw) as { type?: unknown };
    } catch {
      return ['a delivery that is not JSON'];
    }
    const what = `delivery ${String(body.type)}`;
    const operation = this.document.webhooks[String(body.type)]?.post;
    if (!operation) return [`${what}: no such webhook event`];
    const problems: string[] = [];
    for (const parameter of operation.parameters.filter((p) => p.in === 'header')) {
      const pattern = (parameter.schema as { pattern?: string }).pattern;
      if (signature === undefined) problems.push(`${what}: header ${parameter.name} missing`);
      else if (pattern && !new RegExp(pattern).test(signature))
        problems.push(`${what}: header ${parameter.name} out of shape`);
    }
    const validate = this.validator(operation.requestBody!.content['application/json'].schema);
    if (!validate(body)) {
      for (const e of validate.errors ?? []) {
        problems.push(`${what}: ${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
      }
    }
    return problems;
  }

  private resolve(response: Response): Response {
    if (!response.$ref) return response;
    const name = response.$ref.split('/').pop()!;
    return this.document.components.responses[name] as Response;
  }

  private validator(schema: unknown): ValidateFunction {
    const key = JSON.stringify(schema);
    let validate = this.validators.get(key);
    if (!validate) {
      // A reference into the document's components resolves against the document itself.
      const ref = (schema as { $ref?: string }).$ref;
      validate = this.ajv.compile(ref ? { $ref: `${DOCUMENT_ID}${ref}` } : (schema as object));
      this.validators.set(key, validate);
    }
    return validate;
  }
}
