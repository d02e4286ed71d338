import 'reflect-metadata';
import fastifyCookie from '@fastify/cookie';
import { Logger, type LogLevel } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { AppModule, type Role } from './app.module.js';
import type { AppConfig } from './infra/config/config.js';
import { HttpExceptionFilter } from './infra/http/http-exception.filter.js';
import { registerOpenApi } from './infra/http/openapi.js';
import { registerQueueBoard } from './infra/queue/queue-board.js';
import { acceptFormPosts, keepRawJsonBody } from './infra/http/raw-body.js';
import { UNSUBSCRIBE_PATH } from './modules/notifications/index.js';
import { RECIPIENT_UNSUBSCRIBE_PATH } from './modules/distribution/index.js';
import { AppLogger, inRequest, requestIdFrom } from './infra/logging/app-logger.js';
import { Metrics } from './infra/metrics/metrics.js';
import { registerStatusOverride } from './infra/http/response-status.js';
import { PAYMENT_GATEWAY, type PaymentGateway } from './infra/payments/payment-gateway.port.js';
import { TestPaymentGateway } from './infra/payments/test-payment-gateway.js';
import { PAYMENT_WEBHOOK_PATH } from './modules/payments/payments.module.js';
import { registerHttpHardening, staticCacheHeaders } from './infra/http/security.js';
import { createValidationPipe } from './infra/http/validation.js';
import { registerNativeRoutes } from './infra/http/native-route.js';
import { GracefulFastifyAdapter } from './infra/http/graceful-stop.js';
import { WebApp } from './infra/http/web-app.js';
import { SeatlinkIoAdapter } from './infra/realtime/io.adapter.js';
import { mountWalletSim, WALLET_SIM_PREFIX } from './infra/wallet/wallet-sim.mount.js';

const LEVELS: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];
export const logLevels = (config: AppConfig) => LEVELS.slice(0, LEVELS.indexOf(config.LOG_LEVEL) + 1);
const appLogger = (config: AppConfig, role: Role) =>
  new AppLogger({ json: config.LOG_FORMAT === 'json', logLevels: logLevels(config), role });

/** The HTTP application (API, socket.io, and the built dashboard when present). Not yet listening. */
export async function createHttpApp(config: AppConfig, role: 'all' | 'api'): Promise<NestFastifyApplication> {
  // Which proxies may set X-Forwarded-For (the client IP that throttling counts): none unless configured. A stop
  // refuses new requests and drains the ones under way first (graceful-stop.ts).
  const adapter = new GracefulFastifyAdapter(
    {
      ...connectionBounds(config),
      trustProxy: config.trustProxy,
      bodyLimit: 256 * 1024,
      genReqId: (request: IncomingMessage) => requestIdFrom(request.headers['x-request-id']),
    },
    { keepServing: config.mountWalletSim ? [WALLET_SIM_PREFIX] : [] },
  );
  // JSON bodies only (Fastify's own parser): no form-encoded bodies, the classic way around CORS.
  const app = await NestFactory.create<NestFastifyApplication>(AppModule.forRoot(config, role), adapter, {
    logger: appLogger(config, role),
    bodyParser: false,
  });
  tagRequests(app);
  const dashboardOrigin = new URL(config.DASHBOARD_URL).origin;
  const webDist = config.webDist && existsSync(config.webDist) ? config.webDist : null;
  const webApp = WebApp.load(webDist);
  await registerHttpHardening(app, dashboardOrigin, webApp?.inlineScriptHashes);
  await app.register(fastifyCookie);
  registerStatusOverride(app.getHttpAdapter().getInstance());
  keepRawJsonBody(app.getHttpAdapter().getInstance(), [PAYMENT_WEBHOOK_PATH]);
  acceptFormPosts(app.getHttpAdapter().getInstance(), [UNSUBSCRIBE_PATH, RECIPIENT_UNSUBSCRIBE_PATH]);
  measureHttp(app);
  app.enableCors({
    origin: dashboardOrigin,
    credentials: true,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
  });
  refuseForeignOrigins(app, dashboardOrigin);
  if (config.mountWalletSim) await mountWalletSim(app, config);
  await registerOpenApi(app);
  await registerQueueBoard(app);
  app.useGlobalPipes(createValidationPipe());
  app.useGlobalFilters(new HttpExceptionFilter(webApp));
  if (webDist) {
    app.useStaticAssets({
      root: webDist,
      prefix: '/',
      wildcard: false,
      // No dotfile is a file of the dashboard's (web/dist keeps its build stamp as one): they are not served.
      dotfiles: 'ignore',
      index: ['index.html'],
      cacheControl: false,
      setHeaders: staticCacheHeaders,
    });
  }
  app.useWebSocketAdapter(
    new SeatlinkIoAdapter(app, {
      dashboardOrigin,
      ...(config.REDIS_URL
        ? {
            redis: {
              url: config.REDIS_URL,
              key: `${config.REDIS_PREFIX}:socket.io`,
              commandTimeoutMs: config.REDIS_COMMAND_TIMEOUT_MS,
            },
          }
        : {}),
    }),
  );
  connectTestPayments(app);
  registerNativeRoutes(app);
  app.enableShutdownHooks();
  return app;
}

/**
 * How long a client may take (HTTP_*_TIMEOUT_MS): a slowloris client that trickles its headers or body a byte at a
 * time, or opens a connection and says nothing, is answered 408 and cut off once the headers or the request take
 * longer than their bound (Node checks every connection for that at least once a second); a kept-alive connection
 * closes when no request follows within its bound, and a connection silent both ways (a client that stops reading
 * its answer) after the idle bound. An answer may take its time (only that much silence both ways ends it), and an
 * open socket.io connection is never cut: a WebSocket leaves HTTP when it is upgraded, and a long poll is a complete
 * request waiting for its answer, at most socket.io's 25-second ping interval.
 */
function connectionBounds(config: AppConfig) {
  const timeouts = {
    headersTimeout: config.HTTP_HEADERS_TIMEOUT_MS,
    requestTimeout: config.HTTP_REQUEST_TIMEOUT_MS,
    keepAliveTimeout: config.HTTP_KEEP_ALIVE_TIMEOUT_MS,
  };
  return {
    // Fastify's own settings of Node's server (its defaults: none for the request, 72 s kept alive, never idle).
    requestTimeout: timeouts.requestTimeout,
    keepAliveTimeout: timeouts.keepAliveTimeout,
    connectionTimeout: config.HTTP_IDLE_TIMEOUT_MS,
    http: {
      ...timeouts,
      connectionsCheckingInterval: Math.max(50, Math.min(1000, Math.floor(timeouts.headersTimeout / 2))),
    },
  };
}

/** Every request has an id (the proxy's, or a new one), answered in `X-Request-Id` and named by every log line of it. */
function tagRequests(app: NestFastifyApplication) {
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRequest', (request, reply, done) => {
      void reply.header('x-request-id', request.id);
      inRequest(request.id, done);
    });
}

/** Every answer's time, by route pattern (not path: a link's code must not become a label), method and status. */
function measureHttp(app: NestFastifyApplication) {
  const histogram = app.get(Metrics).httpDuration;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onResponse', (request, reply, done) => {
      histogram.observe(
        {
          method: request.method,
          route: request.routeOptions.url ?? 'unmatched',
          status_code: String(reply.statusCode),
        },
        reply.elapsedTime / 1000,
      );
      done();
    });
}

/** The test gateway sends its signed webhooks to this process's own webhook endpoint, as Stripe would over HTTPS. */
function connectTestPayments(app: NestFastifyApplication) {
  const gateway = app.get<PaymentGateway>(PAYMENT_GATEWAY);
  if (!(gateway instanceof TestPaymentGateway)) return;
  gateway.connect(async (body, signature) => {
    const response = await app.inject({
      method: 'POST',
      url: PAYMENT_WEBHOOK_PATH,
      payload: body,
      headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    });
    return response.statusCode;
  });
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
    .addHook('onRequest', (request, reply, done) => {
      const origin = request.headers.origin;
      if (
        SAFE_METHODS.has(request.method) ||
        !origin ||
        origin === dashboardOrigin ||
        origin === `${request.protocol}://${request.headers.host}`
      ) {
        done();
        return;
      }
      void reply.code(403).send({ message: 'Cross-origin request refused', statusCode: 403 });
    });
}

/** A process without HTTP: the worker, or a CLI. */
export async function createContext(config: AppConfig, role: Exclude<Role, 'all' | 'api'>) {
  const app = await NestFactory.createApplicationContext(AppModule.forRoot(config, role), {
    logger: appLogger(config, role),
  });
  app.enableShutdownHooks();
  return app;
}

export const logger = new Logger('Seatlink');
