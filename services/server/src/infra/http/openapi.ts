import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { HttpStatus, RequestMethod } from '@nestjs/common';
import { HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { z } from 'zod';
import { API_KEY_SCOPES, API_KEY_SCOPE_LABELS, type ApiKeyScope } from '@seatlink/contracts';
import { API_KEY_SCOPE, IS_ADMIN_ONLY, IS_PUBLIC } from './auth.decorators.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { nativeRoutes } from './native-route.js';

type JsonSchema = Record<string, unknown>;

interface Operation {
  summary: string;
  tags: string[];
  security?: Array<Record<string, string[]>>;
  parameters: Array<{ name: string; in: 'path' | 'query'; required: boolean; schema: JsonSchema }>;
  requestBody?: { required: true; content: { 'application/json': { schema: JsonSchema } } };
  responses: Record<string, { description: string; content?: Record<string, { schema: JsonSchema }> }>;
}

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  components: { securitySchemes: Record<string, unknown>; schemas: Record<string, JsonSchema> };
  security: Array<Record<string, string[]>>;
  paths: Record<string, Record<string, Operation>>;
}

const METHODS: Partial<Record<RequestMethod, string>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

const ERROR: JsonSchema = {
  type: 'object',
  required: ['message', 'statusCode'],
  properties: { message: { type: 'string' }, code: { type: 'string' }, statusCode: { type: 'integer' } },
};

const responsesOf = (status: number): Operation['responses'] => ({
  [String(status)]: { description: 'Done' },
  '4XX': { description: 'Refused: the message says why', content: { 'application/json': { schema: ERROR } } },
});

/** The zod schema as JSON Schema of what a caller sends (transforms and refinements are the server's business). */
function jsonSchema(schema: unknown): JsonSchema {
  if (!(schema instanceof z.ZodType)) return {};
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  return rest;
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
      for (const [key, arg] of Object.entries(args)) {
        const type = Number(key.split(':')[0]);
        if (type === (RouteParamtypes.BODY as number) && arg.schema) body = jsonSchema(arg.schema);
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
      for (const prefix of prefixes) {
        for (const sub of asArray(routePath)) {
          const path = openApiPath(joinPath(prefix, sub));
          // The path's own parameters, also those read without a schema.
          for (const [, param] of path.matchAll(/\{([^}]+)\}/g)) {
            if (!parameters.some((p) => p.in === 'path' && p.name === param)) {
              parameters.push({ name: param!, in: 'path', required: true, schema: { type: 'string' } });
            }
          }
          const operation: Operation = {
            summary: `${name}${isAdmin ? ' (admins)' : ''}`,
            tags: [titleOf(controller.name)],
            // Open to API keys with the scope, besides the session; the others take the session only.
            ...(isPublic ? { security: [] } : scope ? { security: [{ session: [] }, { apiKey: [scope] }] } : {}),
            parameters,
            ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: body } } } } : {}),
            responses: responsesOf(status),
          };
          (paths[path] ??= {})[method] = operation;
        }
      }
    }
  }
  // The calls Fastify serves itself (public), from their definitions.
  for (const route of nativeRoutes(app)) {
    (paths[openApiPath(route.path)] ??= {})[route.method.toLowerCase()] = {
      summary: route.summary,
      tags: [route.tag],
      security: [],
      parameters: Object.entries(route.params).map(([name, schema]) => ({
        name,
        in: 'path' as const,
        required: true,
        schema: jsonSchema(schema),
      })),
      responses: responsesOf(route.status),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Seatlink API',
      version: '1',
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
      schemas: { Error: ERROR },
    },
    security: [{ session: [] }],
    paths: Object.fromEntries(Object.entries(paths).sort(([a], [b]) => a.localeCompare(b))),
  };
}

/** `/docs`: the document at `/docs/json`, read in Swagger UI (served from this origin, no outside scripts). */
export async function registerOpenApi(app: NestFastifyApplication): Promise<void> {
  const document = buildOpenApiDocument(app);
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as never } });
  await app.register(fastifySwaggerUi, { routePrefix: '/docs', staticCSP: true });
}
