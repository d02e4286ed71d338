import type { INestApplication } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { errorAnswer, sendError } from './http-exception.filter.js';
import { providerMark } from '../../shared/provider-mark.js';
import { invalidRequest } from './validation.js';

const routes = providerMark<NativeRoute>('seatlink.native-route');

/**
 * A public call on the hot path that Fastify serves itself, without Nest's per-request pipeline (global guard,
 * interceptors, pipes and the rxjs between them, about a fifth of a link claim's time): a link's claim, which every
 * recipient's press sends. It answers as every other call does — each path parameter checked by its zod schema (the
 * same 400), its errors through the same mapping (`errorAnswer`), the instance's hooks (security headers, request id,
 * CORS, origin check, metrics) — and /docs describes it from this definition. No session is read: public calls only.
 * A provider class marked @NativeRoute() in its feature's module.
 */
export interface NativeRoute<Params extends Record<string, z.ZodType> = Record<string, z.ZodType>> {
  readonly method: 'POST';
  /** Fastify's form: `/v1/links/:code/claim`. */
  readonly path: string;
  /** Its name in /docs, and the group it is listed under. */
  readonly summary: string;
  readonly tag: string;
  /** Each path parameter's schema. */
  readonly params: Params;
  /** Status of a successful answer. */
  readonly status: number;
  /** Its optional JSON body, for /docs (the handler reads it). */
  readonly body?: z.ZodType;
  /** What it answers when it succeeds: a named schema of the contracts. */
  readonly answer?: z.ZodType;
  /** It honours an Idempotency-Key (a retry is answered as the first was). */
  readonly idempotent: boolean;
  handle(
    params: { [K in keyof Params]: z.output<Params[K]> },
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<unknown>;
}

export const NativeRoute = routes.markClass;

/** The native routes of the application's modules. */
export function nativeRoutes(app: INestApplication): NativeRoute[] {
  return routes.found(app.get(DiscoveryService));
}

/** Adds the native routes to the instance (after its hooks, which they run like every route). */
export function registerNativeRoutes(app: NestFastifyApplication): void {
  for (const route of nativeRoutes(app)) {
    app
      .getHttpAdapter()
      .getInstance()
      .route({
        method: route.method,
        url: route.path,
        // Answers of a few bytes, never worth compressing; no compressed bodies either.
        compress: false,
        decompress: false,
        errorHandler: (error, _request, reply) => sendError(reply, errorAnswer(error)),
        handler: async (request, reply) => {
          const given = request.params as Record<string, string>;
          const params: Record<string, unknown> = {};
          for (const [name, schema] of Object.entries(route.params)) {
            const parsed = schema.safeParse(given[name]);
            if (!parsed.success) throw invalidRequest(parsed.error.issues);
            params[name] = parsed.data;
          }
          const body = await route.handle(params, request, reply);
          return reply.status(route.status).send(body);
        },
      });
  }
}
