import { MFA_MESSAGES } from '@seatlink/contracts';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../http/session-cookie.js';
import { SESSION_GATE, type SessionGate } from '../http/session-gate.port.js';
import { BullmqJobQueue } from './bullmq-job-queue.js';
import { JOB_QUEUE, type JobQueue } from './queue.port.js';

export const QUEUE_BOARD_PATH = '/v1/admin/queues';

/** Bull Board's own page needs its inline bootstrap script and styles; nothing else of the product gets them. */
const BOARD_CSP =
  "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
  "font-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'self'; object-src 'none'";

/**
 * The queues for admins (Bull Board) at /v1/admin/queues, when the jobs run on BullMQ (REDIS_URL): waiting, delayed,
 * failed and finished jobs of every queue, with retry and clean. Signed-in admins only (the same session cookie as
 * the dashboard, admitted by the same policy): 401 without a session (or banned), 403 for others.
 */
export async function registerQueueBoard(app: NestFastifyApplication): Promise<void> {
  const queue = app.get<JobQueue>(JOB_QUEUE);
  if (!(queue instanceof BullmqJobQueue)) return;
  const gate = app.get<SessionGate>(SESSION_GATE);
  const board = new FastifyAdapter();
  board.setBasePath(QUEUE_BOARD_PATH);
  createBullBoard({
    queues: queue.bullQueues().map((q) => new BullMQAdapter(q)),
    serverAdapter: board,
    options: { uiConfig: { boardTitle: 'Seatlink queues' } },
  });
  const adminsOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    const admitted = await gate.authenticate(request.cookies?.[SESSION_COOKIE], 'admin');
    if (admitted.ok) return;
    if (admitted.refused === 'not-admin') {
      return reply.code(403).send({ message: 'Admin access required', statusCode: 403 });
    }
    if (admitted.refused === 'mfa-enrolment') {
      return reply
        .code(403)
        .send({ message: MFA_MESSAGES.enrolmentRequired, code: 'MFA_ENROLMENT_REQUIRED', statusCode: 403 });
    }
    return reply.code(401).send({ message: 'Not authenticated', statusCode: 401 });
  };
  const fastify = app.getHttpAdapter().getInstance();
  await fastify.register(async (scope) => {
    scope.addHook('onRequest', adminsOnly);
    scope.addHook('onSend', async (_request, reply, payload) => {
      void reply.header('content-security-policy', BOARD_CSP);
      return payload;
    });
    await scope.register(board.registerPlugin(), { prefix: QUEUE_BOARD_PATH });
  });
}
