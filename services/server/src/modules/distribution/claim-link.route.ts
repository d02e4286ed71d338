import { BadRequestException, ForbiddenException, Inject, Injectable } from '@nestjs/common';
import {
  claimRequestSchema,
  type ClaimResponse,
  claimResponseSchema,
  LINK_MESSAGES,
  linkCodeParamSchema,
} from '@seatlink/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { APP_CONFIG, type AppConfig } from '../../infra/config/config.js';
import { idempotencyKeyOf } from '../../infra/http/idempotency.interceptor.js';
import { NativeRoute } from '../../infra/http/native-route.js';
import { judgeUserAgent } from './claimant-device.js';
import { linkUrl } from './link-url.js';
import { LinkClaims } from './link-claims.service.js';
import { LinkPins } from './link-pins.service.js';

const params = { code: linkCodeParamSchema };

/**
 * One field of a claim's body, as its schema takes it; undefined when the body is not an object (anything else in a
 * body, or no body at all, is as before these fields were). A field its schema refuses is a 400 with `refusal`, before
 * anything is looked up or counted.
 */
function fieldOf<K extends keyof typeof claimRequestSchema.shape>(
  body: unknown,
  key: K,
  refusal: { message: string; code: string },
): z.output<(typeof claimRequestSchema.shape)[K]> | undefined {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const field = claimRequestSchema.shape[key].safeParse((body as Record<string, unknown>)[key]);
  if (!field.success) throw new BadRequestException(refusal);
  return field.data as z.output<(typeof claimRequestSchema.shape)[K]>;
}

/** The PIN a claim brings (4 to 8 digits), or null for none. */
const pinOf = (body: unknown) => fieldOf(body, 'pin', { message: LINK_MESSAGES.pinFormat, code: 'PIN_FORMAT' }) || null;

/** The name a recipient gives (for the link's owner to see; plain text of at most MAX_CLAIMANT_NAME), or null. */
const nameOf = (body: unknown) =>
  fieldOf(body, 'name', { message: LINK_MESSAGES.nameFormat, code: 'NAME_FORMAT' }) ?? null;

/**
 * The device id the claim page keeps (8 to 64 letters, digits, _ or -), or null when it brings none: PINs are slowed
 * per device and per address.
 */
const deviceOf = (body: unknown) =>
  fieldOf(body, 'device_id', { message: LINK_MESSAGES.deviceFormat, code: 'DEVICE_FORMAT' }) ?? null;

/**
 * `POST /v1/links/{code}/claim` (public): counts a click when a person presses "Add to wallet" — never for a known bot
 * or a client that does not say what it is (403) — and answers where to save the pass, or 404/410. Served natively (the
 * hottest call of the product: every recipient's press). Its Idempotency-Key is honoured where the click is counted (a
 * retry is answered with the click it was given, across API processes), not by the general handling, which would
 * cost two more statements per claim.
 */
@Injectable()
@NativeRoute()
export class ClaimLinkRoute implements NativeRoute<typeof params> {
  readonly method = 'POST';
  readonly path = '/v1/links/:code/claim';
  readonly summary = 'claim';
  readonly tag = 'Links';
  readonly params = params;
  readonly status = 200;
  readonly body = claimRequestSchema;
  readonly answer = claimResponseSchema;
  readonly idempotent = true;

  constructor(
    private readonly claims: LinkClaims,
    private readonly pins: LinkPins,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async handle({ code }: { code: string }, request: FastifyRequest, reply: FastifyReply): Promise<ClaimResponse> {
    const key = idempotencyKeyOf(request) ?? null;
    const agent = judgeUserAgent(request.headers['user-agent']);
    if (agent.automated) {
      throw new ForbiddenException({ message: LINK_MESSAGES.automated, code: 'AUTOMATED_CLIENT' });
    }
    const pin = pinOf(request.body);
    const claimant = { name: nameOf(request.body), device: agent.device };
    // Only a claim that brings a PIN has one checked (a link without a PIN costs nothing more).
    const pinHash =
      pin === null ? null : await this.pins.check(code, pin, { ip: request.ip, device: deviceOf(request.body) });
    const claimed = await this.claims.claim(code, linkUrl(this.config.DASHBOARD_URL, code), key, pinHash, claimant);
    if (claimed.replayed) void reply.header('Idempotency-Replayed', 'true');
    return { wallet_url: claimed.walletUrl };
  }
}
