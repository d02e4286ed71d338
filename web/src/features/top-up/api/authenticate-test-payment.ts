import { routes, type TopupResponse } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

export type TestAuthenticationOutcome = 'approve' | 'fail';

/** POST /v1/payments/test/intents/{id}/authenticate: the test gateway's 3-D Secure step, approved or failed. */
export function authenticateTestPayment(
  paymentIntentId: string,
  body: { client_secret: string; outcome: TestAuthenticationOutcome },
  idempotencyKey: string,
): Promise<Pick<TopupResponse, 'payment_intent_id' | 'payment_intent_status'>> {
  return callApi(routes.testAuthenticatePayment, { params: { id: paymentIntentId }, body, idempotencyKey });
}
