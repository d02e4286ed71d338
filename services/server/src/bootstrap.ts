import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync } from 'node:fs';
import { AppModule, type Role } from './app.module.js';
import type { AppConfig } from './infra/config/config.js';
import { HttpExceptionFilter } from './infra/http/http-exception.filter.js';
import { createValidationPipe } from './infra/http/validation.js';
import { RedisIoAdapter } from './infra/realtime/redis-io.adapter.js';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];
export const logLevels = (config: AppConfig) => LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1);

/** The HTTP application (API, socket.io, and the built dashboard when present). Not yet listening. */
export async function createHttpApp(config: AppConfig, role: 'all' | 'api'): Promise<NestFastifyApplication> {
  // Which proxies may set X-Forwarded-For (the client IP that throttling counts): none unless configured.
  const adapter = new FastifyAdapter({ trustProxy: config.trustProxy, bodyLimit: 256 * 1024 });
  // JSON bodies only (Fastify's own parser): no form-encoded bodies, the classic way around CORS.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, role), adapter, {
    logger: logLevels(config),
    bodyParser: false,
  });
  await app.register(fastifyCookie);
  const dashboardOrigin = new URL(config.DASHBOARD_URL).origin;
  app.enableCors({ origin: dashboardOrigin, credentials: true, methods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE'] });
  refuseForeignOrigins(app, dashboardOrigin);
  app.useGlobalPipes(createValidationPipe());
  const webDist = config.webDist && existsSync(config.webDist) ? config.webDist : null;
  app.useGlobalFilters(new HttpExceptionFilter(webDist));
  if (webDist) app.useStaticAssets({ root: webDist, prefix: '/', wildcard: false, index: ['index.html'] });
  if (config.REDIS_URL)
    app.useWebSocketAdapter(new RedisIoAdapter(app, config.REDIS_URL, `${config.REDIS_PREFIX}:socket.io`));
  app.enableShutdownHooks();
  return app;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * A state-changing request that a browser sends from a page of another origin is refused (on top of SameSite=Lax
 * cookies and CORS): only the dashboard's origin and the API's own may change anything.
 */
function refuseForeignOrigins(app: NestFastifyApplication, dashboardOrigin: string) {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', async (request, reply) => {
      const origin = request.headers.origin;
      if (SAFE_METHODS.has(request.method) || !origin) return;
      if (origin === dashboardOrigin || origin === `${request.protocol}://${request.headers.host}`) return;
      await reply.code(403).send({ message: 'Cross-origin request refused', statusCode: 403 });
    });
}

/** A process without HTTP: the worker, or a CLI. */
export async function createContext(config: AppConfig, role: Exclude<Role, 'all' | 'api'>) {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, role), {
    logger: logLevels(config),
  });
  app.enableShutdownHooks();
  return app;
}

export const logger = new Logger('Seatlink');
