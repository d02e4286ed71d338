import type { Ticket, TicketsResponse } from '@seatlink/contracts';
import type { ApiClient } from './test-app.js';

/** An answer of GET /v1/tickets?since=: the changed tickets, those removed, and whether it is every ticket instead. */
export type ChangesAnswer = TicketsResponse & { removed: string[]; full: boolean };

/** GET /v1/tickets as a client calls it: all at once, by pages, or by changes since a version. */
export function ticketsClient(client: ApiClient) {
  const get = async (query: Record<string, string | number | undefined>) => {
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined) params.set(k, String(v));
    const path = `/v1/tickets${params.size > 0 ? `?${params.toString()}` : ''}`;
    const res = await client.request('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body as unknown as TicketsResponse;
  };
  return {
    all: async (): Promise<Ticket[]> => (await get({})).tickets,
    page: (limit: number, after?: string) => get({ limit, after }),
    since: async (version: string, limit?: number, after?: string) =>
      (await get({ since: version, limit, after })) as ChangesAnswer,
    /** A version that stands after every change so far (`settle` waits for the read models to show them). */
    settledVersion: async (settle: () => Promise<void>) => {
      await settle();
      return (await get({ limit: 1 })).version;
    },
  };
}
