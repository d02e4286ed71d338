import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { HttpStatus, RequestMethod } from '@nestjs/common';
import {
  HEADERS_METADATA,
  HTTP_CODE_METADATA,
  METHOD_METADATA,
  PATH_METADATA,
  ROUTE_ARGS_METADATA,
} from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
import {
  API_KEY_SCOPES,
  API_KEY_SCOPE_LABELS,
  apiSchemas,
  type ApiKeyScope,
  errorResponseSchema,
  WEBHOOK_DEPRECATED_EVENT_TYPES,
  WEBHOOK_SIGNATURE_HEADER,
  webhookEventSchemas,
} from '@seatlink/contracts';
import { API_KEY_SCOPE, IS_ADMIN_ONLY, IS_PUBLIC } from './auth.decorators.js';
import { NO_IDEMPOTENCY_KEY } from './idempotency.interceptor.js';
import { ANSWERS, DEPRECATED_PREFIXES } from './openapi.decorators.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { nativeRoutes } from './native-route.js';

type JsonSchema = Record<string, unknown>;

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  description?: string;
  schema: JsonSchema;
}

type Response =
  | { $ref: string }
  | {
      description: string;
      headers?: Record<string, { $ref: string }>;
      content?: Record<string, { schema: JsonSchema }>;
    };

interface Operation {
  operationId: string;
  summary: string;
  tags: string[];
  deprecated?: true;
  security?: Array<Record<string, string[]>>;
  parameters: Parameter[];
  requestBody?: { required: boolean; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, Response>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: Array<{ url: string; description: string }>;
  components: {
    securitySchemes: Record<string, unknown>;
    schemas: Record<string, JsonSchema>;
    responses: Record<string, Response>;
    headers: Record<string, { description: string; schema: JsonSchema }>;
  };
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
  /** What Seatlink sends to an endpoint a user registered: each event type as the POST it is. */
  webhooks: Record<string, { post: Operation }>;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

const HEADERS: OpenApiDocument['components']['headers'] = {
  'RateLimit-Limit': {
    description: 'Calls an API key may make in its window (answered to API keys).',
    schema: { type: 'integer' },
  },
  'RateLimit-Remaining': { description: 'Calls left in the window.', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the window starts again.', schema: { type: 'integer' } },
  'Retry-After': { description: 'Seconds to wait before trying again.', schema: { type: 'integer' } },
  'Idempotency-Replayed': {
    description:
      '`true`: the answer of an earlier request with the same Idempotency-Key, given again; nothing changed.',
    schema: { type: 'string', enum: ['true'] },
  },
};

const ref = (kind: 'responses' | 'headers', name: string) => ({ $ref: `#/components/${kind}/${name}` });
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': ref('headers', 'RateLimit-Limit'),
  'RateLimit-Remaining': ref('headers', 'RateLimit-Remaining'),
  'RateLimit-Reset': ref('headers', 'RateLimit-Reset'),
};

/** Every refusal's body: the contracts' `Error` (what the exception filter's `errorAnswer` builds). */
const ERROR = { $ref: `#/components/schemas/${apiSchemas.get(errorResponseSchema)!.id}` };

const RESPONSES: OpenApiDocument['components']['responses'] = {
  Error: {
    description: 'Refused: the message says why',
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': ref('headers', 'Retry-After') },
    content: { 'application/json': { schema: ERROR } },
  },
  RateLimited: {
    description: 'Too many calls: come back after Retry-After seconds',
    headers: { ...RATE_LIMIT_HEADERS, 'Retry-After': ref('headers', 'Retry-After') },
    content: { 'application/json': { schema: ERROR } },
  },
  InternalError: {
    description: 'Something went wrong on the server (logged there; the answer names nothing of it)',
    content: { 'application/json': { schema: ERROR } },
  },
  Unavailable: {
    description: 'The service is unavailable for a moment (a dependency away, or the process stopping): try again',
    headers: { 'Retry-After': ref('headers', 'Retry-After') },
    content: { 'application/json': { schema: ERROR } },
  },
};

/** `Idempotency-Key` (infra/http/idempotency.interceptor.ts): a retry with the same key changes nothing more. */
const IDEMPOTENCY_KEY: Parameter = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'A key of your own for this change (1–255 visible ASCII characters): a retry with the same key within 24 hours ' +
    'is answered as the first was (with `Idempotency-Replayed: true`) and changes nothing more.',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

interface Answer {
  status: number;
  /** The success body's schema (a reference to a named component). */
  body?: JsonSchema;
  /** Open to API keys: their RateLimit-* headers on every answer, 429 past the limit. */
  keyed: boolean;
  idempotent: boolean;
  /** The success body's media type when it is not JSON (a CSV export). */
  mediaType?: string;
  /**
   * A change whose answer may say `pending: true` (made, but a list read right after may not show it yet): that
   * answer is 202 Accepted (PendingInterceptor), with the same body.
   */
  pending?: boolean;
}

function responsesOf({ status, body, keyed, idempotent, mediaType, pending }: Answer): Operation['responses'] {
  const headers = {
    ...(keyed ? RATE_LIMIT_HEADERS : {}),
    ...(idempotent ? { 'Idempotency-Replayed': ref('headers', 'Idempotency-Replayed') } : {}),
  };
  const done = {
    ...(Object.keys(headers).length > 0 ? { headers } : {}),
    ...(mediaType
      ? { content: { [mediaType]: { schema: { type: 'string' } } } }
      : body
        ? { content: { 'application/json': { schema: body } } }
        : {}),
  };
  return {
    [String(status)]: { description: 'Done', ...done },
    ...(pending && status !== 202
      ? {
          '202': {
            description: 'Done, but a list read right after may not show it for a moment (`pending: true`)',
            ...done,
          },
        }
      : {}),
    '4XX': ref('responses', 'Error'),
    ...(keyed ? { '429': ref('responses', 'RateLimited') } : {}),
    '500': ref('responses', 'InternalError'),
    '503': ref('responses', 'Unavailable'),
  };
}

/** The signature every delivery carries (docs/reference.md, "Webhooks"). */
const SIGNATURE: Parameter = {
  name: WEBHOOK_SIGNATURE_HEADER,
  in: 'header',
  required: true,
  description:
    '`t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>" with the signing secret>`; after a secret is rolled with a ' +
    'grace period, one `v1=` for each secret that still signs. Check one matches, and that `t` is recent.',
  schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
};

/** The `webhooks` section: each event type a POST to the endpoint, its body the contracts' schema of that event. */
function webhookOperations(): OpenApiDocument['webhooks'] {
  return Object.fromEntries(
    Object.entries(webhookEventSchemas).map(([type, schema]) => [
      type,
      {
        post: {
          operationId: `webhookEvent${pascal(type.replace(/\./g, ' '))}`,
          summary: apiSchemas.get(schema)?.description ?? type,
          tags: ['Webhook events'],
          ...((WEBHOOK_DEPRECATED_EVENT_TYPES as readonly string[]).includes(type)
            ? { deprecated: true as const }
            : {}),
          security: [],
          parameters: [SIGNATURE],
          requestBody: { required: true, content: { 'application/json': { schema: answerRef(schema, type)! } } },
          responses: {
            '2XX': { description: 'Received: delivered (any 2xx in time; the body is not read)' },
            '4XX': {
              description: 'Refused, as is any other answer or none in time: tried again with backoff for 3 days',
            },
          },
        },
      },
    ]),
  );
}

const CHANGING = new Set(['post', 'put', 'patch', 'delete']);
const pascal = (words: string) => words.replace(/(?:^|[\s_-]+)(\w)/g, (_m, c: string) => c.toUpperCase());
/** `Accounts` + `list` → `accountsList`: unique, as a tag's handlers are one class's methods. */
const operationIdOf = (tag: string, handler: string, deprecated: boolean) => {
  const name = pascal(tag) + pascal(handler);
  return name.charAt(0).toLowerCase() + name.slice(1) + (deprecated ? 'Deprecated' : '');
};

/** The zod schema as JSON Schema of what a caller sends (transforms and refinements are the server's business). */
function jsonSchema(schema: unknown): JsonSchema {
  if (!(schema instanceof z.ZodType)) return {};
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

const COMPONENT = (id: string) => `#/components/schemas/${id}`;

/** The reference to a named schema of the contracts (`named()`); a schema without a name is a mistake of the call's. */
function answerRef(answer: unknown, where: string): JsonSchema | undefined {
  if (answer === undefined) return undefined;
  const id = answer instanceof z.ZodType ? apiSchemas.get(answer)?.id : undefined;
  if (!id) throw new Error(`${where}: @Answers() takes a named schema of the contracts (named('…', z.object(…)))`);
  return { $ref: COMPONENT(id) };
}

/**
 * The named schemas of the contracts that `used` refers to (and those they refer to), as components: as the server
 * answers them (`io: 'output'`).
 */
function namedComponents(used: unknown): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(apiSchemas, { uri: COMPONENT, io: 'output', unrepresentable: 'any' }) as {
    schemas: Record<string, JsonSchema>;
  };
  const refsOf = (value: unknown) =>
    [...JSON.stringify(value).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
  const kept = new Map<string, JsonSchema>();
  const pending = refsOf(used);
  for (let id = pending.pop(); id !== undefined; id = pending.pop()) {
    const found = schemas[id];
    if (!found || kept.has(id)) continue;
    const { $schema: _s, $id: _i, ...rest } = found;
    kept.set(id, rest);
    pending.push(...refsOf(rest));
  }
  return Object.fromEntries([...kept].sort(([a], [b]) => a.localeCompare(b)));
}

const asArray = (value: unknown): string[] =>
  Array.isArray(value) ? (value as string[]) : [typeof value === 'string' ? value : ''];
const joinPath = (...parts: string[]) =>
  `/${parts
    .flatMap((p) => p.split('/'))
    .filter(Boolean)
    .join('/')}`;
/** `/v1/links/:code` → `/v1/links/{code}`. */
const openApiPath = (path: string) => path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}');
const titleOf = (name: string) =>
  name
    .replace(/Controller$/, '')
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .trim();

/**
 * The OpenAPI document of every HTTP call, read from the controllers as they are: their routes, and the contracts' zod
 * schemas their parameters validate with (`@Body({ schema })`, `@Param(name, { schema })`, `@Query({ schema })`).
 * Nothing is written twice: a call or a schema that changes changes its documentation.
 */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  for (const wrapper of app.get(DiscoveryService).getControllers()) {
    const controller = wrapper.metatype as (new (...args: never[]) => unknown) | null;
    if (!controller) continue;
    const classPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
    const classAdmin = Reflect.getMetadata(IS_ADMIN_ONLY, controller) === true;
    const prefixes = asArray(Reflect.getMetadata(PATH_METADATA, controller));
    const prototype = controller.prototype as Record<string, unknown>;
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const method = METHODS[Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod];
      const routePath = Reflect.getMetadata(PATH_METADATA, handler) as unknown;
      if (!method || routePath === undefined) continue;
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
        string,
        { data?: unknown; schema?: unknown }
      >;
      const parameters: Operation['parameters'] = [];
      let body: JsonSchema | undefined;
      let bodyRequired = true;
      for (const [key, arg] of Object.entries(args)) {
        const type = Number(key.split(':')[0]);
        if (type === (RouteParamtypes.BODY as number) && arg.schema) {
          body = jsonSchema(arg.schema);
          // A body the call may go without (its schema takes none: `.optional()`).
          bodyRequired = !(arg.schema instanceof z.ZodType && arg.schema.safeParse(undefined).success);
        }
        if (type === (RouteParamtypes.PARAM as number) && typeof arg.data === 'string') {
          parameters.push({ name: arg.data, in: 'path', required: true, schema: jsonSchema(arg.schema) });
        }
        if (type === (RouteParamtypes.QUERY as number) && arg.schema) {
          const query = jsonSchema(arg.schema) as { properties?: Record<string, JsonSchema>; required?: string[] };
          for (const [field, schema] of Object.entries(query.properties ?? {})) {
            parameters.push({ name: field, in: 'query', required: query.required?.includes(field) ?? false, schema });
          }
        }
      }
      const isPublic = classPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true;
      const isAdmin = classAdmin || Reflect.getMetadata(IS_ADMIN_ONLY, handler) === true;
      const scope = (Reflect.getMetadata(API_KEY_SCOPE, handler) ?? Reflect.getMetadata(API_KEY_SCOPE, controller)) as
        ApiKeyScope | undefined;
      const status =
        (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ??
        (method === 'post' ? HttpStatus.CREATED : HttpStatus.OK);
      const idempotent = CHANGING.has(method) && Reflect.getMetadata(NO_IDEMPOTENCY_KEY, handler) !== true;
      const headers = (Reflect.getMetadata(HEADERS_METADATA, handler) ?? []) as Array<{ name: string; value: string }>;
      const mediaType = headers
        .find((h) => h.name.toLowerCase() === 'content-type')
        ?.value.split(';')[0]
        ?.trim();
      const deprecatedPrefixes = (Reflect.getMetadata(DEPRECATED_PREFIXES, controller) ?? []) as string[];
      const tag = titleOf(controller.name);
      const answers: unknown = Reflect.getMetadata(ANSWERS, handler);
      const answer = answerRef(answers, `${controller.name}.${name}`);
      // Reads are never pending (PendingInterceptor); a change is when its answer's schema names `pending`.
      const pending = method !== 'get' && answers instanceof z.ZodObject && 'pending' in answers.shape;
      for (const prefix of prefixes) {
        const deprecated = deprecatedPrefixes.includes(prefix);
        for (const sub of asArray(routePath)) {
          const path = openApiPath(joinPath(prefix, sub));
          // The path's own parameters, also those read without a schema.
          for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
            if (!parameters.some((p) => p.in === 'path' && p.name === param)) {
              parameters.push({ name: param!, in: 'path', required: true, schema: { type: 'string' } });
            }
          }
          const operation: Operation = {
            operationId: operationIdOf(tag, name, deprecated),
            summary: `${name}${isAdmin ? ' (admins)' : ''}`,
            tags: [tag],
            ...(deprecated ? { deprecated: true as const } : {}),
            // Open to API keys with the scope, besides the session; the others take the session only.
            ...(isPublic ? { security: [] } : scope ? { security: [{ session: [] }, { apiKey: [scope] }] } : {}),
            parameters: idempotent ? [...parameters, IDEMPOTENCY_KEY] : parameters,
            ...(body
              ? { requestBody: { required: bodyRequired, content: { 'application/json': { schema: body } } } }
              : {}),
            responses: responsesOf({
              status,
              body: answer,
              keyed: scope !== undefined,
              idempotent,
              mediaType,
              pending,
            }),
          };
          (paths[path] ??= {})[method] = operation;
        }
      }
    }
  }
  // The calls Fastify serves itself (public), from their definitions.
  for (const route of nativeRoutes(app)) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = {
      operationId: operationIdOf(route.tag, route.summary, false),
      summary: route.summary,
      tags: [route.tag],
      security: [],
      parameters: [
        ...Object.entries(route.params).map(([name, schema]) => ({
          name,
          in: 'path' as const,
          required: true,
          schema: jsonSchema(schema),
        })),
        ...(route.idempotent ? [IDEMPOTENCY_KEY] : []),
      ],
      ...(route.body
        ? { requestBody: { required: false, content: { 'application/json': { schema: jsonSchema(route.body) } } } }
        : {}),
      responses: responsesOf({
        status: route.status,
        body: answerRef(route.answer, route.path),
        keyed: false,
        idempotent: route.idempotent,
      }),
    };
  }
  const webhooks = webhookOperations();
  return {
    openapi: '3.1.0',
    info: {
      title: 'Seatlink API',
      version: '1',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Seatlink-Proprietary' },
      description:
        'Every call of the dashboard. Signed-in calls carry the session cookie; state-changing calls may send an ' +
        'Idempotency-Key header (a retry with the same key changes nothing more). Errors are `{ message, code?, statusCode }`.\n\n' +
        'Your own systems call with a personal API key (Settings → API keys): `Authorization: Bearer sl_live_…`. A key ' +
        'works on the calls that name its scope under `apiKey`, never on admin calls nor the session-only ones, and ' +
        'each key has its own count of calls (RateLimit-Limit, RateLimit-Remaining and RateLimit-Reset answer every ' +
        'call; past it, 429 with Retry-After). Scopes: ' +
        API_KEY_SCOPES.map((s) => `\`${s}\` (${API_KEY_SCOPE_LABELS[s]})`).join(', ') +
        '.',
    },
    // Relative: the server this document was read from (a client names its own base URL).
    servers: [{ url: '/', description: 'The server this document is served by' }],
    components: {
      securitySchemes: {
        session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE },
        apiKey: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'sl_live_…',
          description: 'A personal API key; each call names the scope it needs.',
        },
      },
      schemas: namedComponents({ paths, webhooks, responses: RESPONSES }),
      responses: RESPONSES,
      headers: HEADERS,
    },
    security: [{ session: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
    webhooks,
  };
}

/** `/docs`: the document at `/docs/json`, read in Swagger UI (served from this origin, no outside scripts). */
export async function registerOpenApi(app: NestFastifyApplication): Promise<void> {
  const document = buildOpenApiDocument(app);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
}
