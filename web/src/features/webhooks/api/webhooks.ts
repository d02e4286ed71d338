import {
  routes,
  type CreateWebhookRequest,
  type UpdateWebhookRequest,
  type WebhookDeliveriesResponse,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookSecretResponse,
  type WebhooksResponse,
} from '@seatlink/contracts';
import { callApi } from '../../../lib/api-client';

/** GET /v1/me/webhooks: the user's endpoints, newest first (never their secrets). */
export function listWebhooks(): Promise<WebhooksResponse> {
  return callApi(routes.listWebhooks);
}

/** POST /v1/me/webhooks {url, events}: the endpoint and its signing secret, shown this once. Needs a fresh proof. */
export function createWebhook(body: CreateWebhookRequest): Promise<WebhookSecretResponse> {
  return callApi(routes.createWebhook, { body });
}

/** PATCH /v1/me/webhooks/{id} {url?, events?, enabled?}: what is given changes. */
export function updateWebhook(
  id: string,
  body: UpdateWebhookRequest,
): Promise<{ message: string; webhook: WebhookEndpoint }> {
  return callApi(routes.updateWebhook, { params: { id }, body });
}

/** DELETE /v1/me/webhooks/{id}: no more deliveries to it. */
export function deleteWebhook(id: string): Promise<{ message: string }> {
  return callApi(routes.deleteWebhook, { params: { id } });
}

/**
 * POST /v1/me/webhooks/{id}/secret {grace_seconds}: a new signing secret, shown this once; the old one stops signing at
 * once, or keeps signing beside it for `graceSeconds`.
 */
export function rollWebhookSecret(id: string, graceSeconds: number): Promise<WebhookSecretResponse> {
  return callApi(routes.rollWebhookSecret, { params: { id }, body: { grace_seconds: graceSeconds } });
}

/** GET /v1/me/webhooks/{id}/deliveries: the endpoint's latest deliveries, newest first. */
export function listWebhookDeliveries(id: string): Promise<WebhookDeliveriesResponse> {
  return callApi(routes.listWebhookDeliveries, { params: { id } });
}

/** POST /v1/me/webhooks/{id}/deliveries/{deliveryId}/resend: the same event, delivered again. */
export function resendWebhookDelivery(
  id: string,
  deliveryId: string,
): Promise<{ message: string; delivery: WebhookDelivery }> {
  return callApi(routes.resendWebhookDelivery, { params: { id, deliveryId } });
}

/** POST /v1/me/webhooks/{id}/test: a `webhook.test` event queued for the endpoint. */
export function sendWebhookTest(id: string): Promise<{ message: string; delivery: WebhookDelivery }> {
  return callApi(routes.sendWebhookTest, { params: { id } });
}
