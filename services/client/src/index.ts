import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { components, paths, webhooks } from './api.js';

export type { components, operations, paths, webhooks } from './api.js';

/** The API's named schemas by name: `Schemas['TicketsResponse']`, `Schemas['Ticket']`, … */
export type Schemas = components['schemas'];

/**
 * A delivery's body, by its type: `WebhookEvent` is any of them (narrow on `type`), `WebhookEvent<'link.claimed'>`
 * one. From the document's `webhooks` section.
 */
export type WebhookEvent<Type extends keyof webhooks = keyof webhooks> = {
  [T in Type]: webhooks[T]['post'] extends { requestBody: { content: { 'application/json': infer Body } } }
    ? Body
    : never;
}[Type];
/** The header each delivery is signed in (the document's webhooks section says how). */
export const SIGNATURE_HEADER = 'Seatlink-Signature';

export interface SeatlinkClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where Seatlink answers, e.g. `https://tickets.example.com` (the API's paths start with `/v1`). */
  baseUrl: string;
  /** A personal API key (Settings → API keys): `sl_live_…`, sent as `Authorization: Bearer`. */
  apiKey: string;
}

/**
 * A client of the Seatlink API, typed from its OpenAPI document (`openapi.json`, generated into `src/api.ts`): every
 * path, parameter, body and answer is checked by TypeScript. Each call answers `{ data, error, response }`: `data` on
 * success, `error` (`{ message, code?, statusCode }`) on a refusal.
 */
export function createSeatlinkClient({ apiKey, ...options }: SeatlinkClientOptions): Client<paths> {
  const client = createClient<paths>(options);
  client.use({
    onRequest({ request }) {
      request.headers.set('authorization', `Bearer ${apiKey}`);
      return request;
    },
  });
  return client;
}
