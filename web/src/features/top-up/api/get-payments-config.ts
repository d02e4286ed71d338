import { routes, type PaymentsConfig } from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/payments/config: which card field to show (the test gateway's or Stripe's) and Stripe's publishable key. */
export function getPaymentsConfig(): Promise<PaymentsConfig> {
  return callApi(routes.paymentsConfig);
}
