import { routes, type TopupResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/**
 * POST /v1/topup/{id}/complete: after the browser finished 3-D Secure, the server asks the provider how the payment
 * stands and credits it once when it succeeded.
 */
export function completeTopUp(paymentIntentId: string, idempotencyKey: string): Promise<TopupResponse> {
  return callApi(routes.completeTopup, { params: { id: paymentIntentId }, idempotencyKey });
}
