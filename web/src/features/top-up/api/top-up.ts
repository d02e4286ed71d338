import { routes, type TopupRequest, type TopupResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/topup: charges the card's PaymentMethod and, when the payment succeeds at once, credits the balance before
 * answering. `idempotencyKey` is one per Pay click, the same for its retries, so a click charges at most once. A card
 * the bank refuses answers 402 with the bank's message (`type: 'card_error'`).
 */
export function topUp(body: TopupRequest, idempotencyKey: string): Promise<TopupResponse> {
  return callApi(routes.topup, { body, idempotencyKey });
}
