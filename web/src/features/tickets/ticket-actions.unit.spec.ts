import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Ticket } from '@seatlink/contracts';
import { useCreditsStore } from '../../lib/credits.store';
import { createQueryClient } from '../../lib/create-query-client';
import { useSessionStore } from '../../lib/session.store';
import { TICKET_LIST_KEY, ticketListQuery, type TicketList } from '../../lib/ticket-list';
import { stubFetch } from '../../testing/fetch-stub';
import { aUser } from '../../testing/fixtures';
import { aTicket } from '../../testing/tickets';
import { distribute, editLink, editLinks, recall, recallLinks } from './ticket-actions';
import { createTicketsStore } from './tickets.store';

const settings = { expiryDate: '2027-01-01T12:00:00.000Z', maxClicks: 5, label: null };
const linked = (id: string): Ticket =>
  aTicket({
    id,
    is_distributed: true,
    distribution: {
      distribution_id: `d-${id}`,
      id: `d-${id}`,
      link: `https://l/${id}`,
      clicks: 2,
      max_clicks: null,
      expiry: null,
      label: null,
      has_pin: false,
      pin_locked: false,
      claimed_by: null,
      recipient: null,
    },
  });

beforeEach(() => {
  useSessionStore.getState().signedIn(aUser({ id: 'u-1', balance: 20 }));
});
afterEach(() => {
  useSessionStore.getState().signedOut();
  vi.unstubAllGlobals();
});

/** A client holding the ticket list `tickets` (read through a stubbed GET). */
async function holding(tickets: Ticket[]) {
  vi.unstubAllGlobals();
  stubFetch({ status: 200, body: { tickets, version: '1', next_cursor: null } });
  const client = createQueryClient();
  await client.fetchQuery(ticketListQuery);
  return client;
}
const shown = (client: ReturnType<typeof createQueryClient>, id: string) =>
  client.getQueryData<TicketList>(TICKET_LIST_KEY)!.tickets.find((t) => t.id === id)!;

describe('distributing tickets', () => {
  it('shows the links made at once, unticks their tickets, keeps the refusals and applies the balance', async () => {
    const client = await holding([aTicket({ id: 't1' }), aTicket({ id: 't2' })]);
    const ui = createTicketsStore();
    ui.getState().setSelected(['t1', 't2'], true);
    const calls = stubFetch(
      { status: 503 },
      {
        status: 200,
        body: {
          distributions: [{ ticket_id: 't1', distribution_id: 'd-1', link: 'https://seatlink.test/l/abc' }],
          failed: [{ ticket_id: 't2', code: 'ALREADY_DISTRIBUTED', message: 'Ticket already distributed' }],
          balance: 15,
        },
      },
      { status: 200, body: aUser({ id: 'u-1', balance: 15 }) },
    );
    vi.useFakeTimers();
    const outcome = distribute(client, ui.getState(), ['t1', 't2', 't1'], settings);
    await vi.advanceTimersByTimeAsync(600);
    vi.useRealTimers();
    expect(await outcome).toEqual({ ok: true, count: 1, failed: [expect.objectContaining({ ticket_id: 't2' })] });

    // One key for the submit and its retry; each ticket once.
    expect(calls.slice(0, 2).map((c) => `${c.method} ${c.url}`)).toEqual([
      'POST /v1/tickets/distribute',
      'POST /v1/tickets/distribute',
    ]);
    expect(calls[0]!.body).toEqual({
      label: null,
      pin: null,
      ticket_ids: ['t1', 't2'],
      expiry_date: settings.expiryDate,
      max_clicks: 5,
    });
    expect(calls[1]!.headers['Idempotency-Key']).toBe(calls[0]!.headers['Idempotency-Key']);
    expect(shown(client, 't1')).toMatchObject({
      is_distributed: true,
      distribution: { id: 'd-1', link: 'https://seatlink.test/l/abc', clicks: 0, max_clicks: 5 },
    });
    expect([...ui.getState().selectedIds]).toEqual(['t2']);
    expect(ui.getState().distributionProblem).toMatchObject({ message: 'Failed to generate distribution link' });
    expect(useCreditsStore.getState().balance).toBe(15);
    // The list is marked to be read again (by changes), and the user is re-read.
    expect(client.getQueryState(TICKET_LIST_KEY)?.isInvalidated).toBe(true);
    await vi.waitFor(() => expect(calls.map((c) => c.url)).toContain('/v1/me'));
  });

  it("says the server's refusal (or 'Failed to generate distribution link'), with the tickets it names and the balance", async () => {
    const client = await holding([aTicket({ id: 't1' })]);
    const ui = createTicketsStore();
    stubFetch(
      {
        status: 402,
        body: {
          message: 'Insufficient credits',
          failed: [{ ticket_id: 't1', code: 'INSUFFICIENT_CREDITS', message: 'Insufficient credits' }],
          balance: 3,
        },
      },
      { status: 500 },
      { status: 400 },
      { status: 500 },
    );
    const refused = await distribute(client, ui.getState(), ['t1'], settings);
    expect(refused).toMatchObject({ ok: false, message: 'Insufficient credits', failed: [{ ticket_id: 't1' }] });
    expect(useCreditsStore.getState().balance).toBe(3);
    expect(shown(client, 't1').distribution).toBeNull();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(await distribute(client, ui.getState(), ['t1'], settings)).toMatchObject({
      ok: false,
      message: 'Failed to generate distribution link',
    });
    expect(ui.getState().distributionProblem?.message).toBe('Failed to generate distribution link');
  });

  it('sends a selection of thousands in parts of 1,000, each with a key of its own, and says every link made', async () => {
    const tickets = Array.from({ length: 2_500 }, (_, i) => aTicket({ id: `t${i}` }));
    const client = await holding(tickets);
    const ui = createTicketsStore();
    const ids = tickets.map((t) => t.id);
    ui.getState().setSelected(ids, true);
    const made = (part: string[], balance: number) => ({
      status: 200,
      body: {
        distributions: part.map((id) => ({ ticket_id: id, distribution_id: `d-${id}`, link: `https://l/${id}` })),
        failed: [],
        balance,
      },
    });
    const calls = stubFetch(
      made(ids.slice(0, 1_000), 2_000),
      // Every ticket of the second part was taken meanwhile: refused whole, ticket by ticket; the third is still sent.
      {
        status: 409,
        body: {
          message: 'Ticket already distributed',
          failed: ids.slice(1_000, 2_000).map((id) => ({ ticket_id: id, code: 'ALREADY_DISTRIBUTED', message: 'x' })),
          balance: 2_000,
        },
      },
      made(ids.slice(2_000), 1_500),
      { status: 200, body: aUser({ id: 'u-1', balance: 1_500 }) },
    );
    const outcome = await distribute(client, ui.getState(), ids, settings);
    expect(outcome).toMatchObject({ ok: true, count: 1_500 });
    expect(outcome.failed).toHaveLength(1_000);
    const sent = calls.filter((c) => c.url === '/v1/tickets/distribute');
    expect(sent.map((c) => (c.body as { ticket_ids: string[] }).ticket_ids)).toEqual([
      ids.slice(0, 1_000),
      ids.slice(1_000, 2_000),
      ids.slice(2_000),
    ]);
    expect(new Set(sent.map((c) => c.headers['Idempotency-Key'])).size).toBe(3);
    expect(shown(client, 't2499').distribution?.id).toBe('d-t2499');
    expect(shown(client, 't1500').distribution).toBeNull();
    expect(ui.getState().selectedIds.size).toBe(1_000);
    expect(useCreditsStore.getState().balance).toBe(1_500);
  });

  it('stops at a part that fails, keeps what the parts before it made, and leaves the rest ticked', async () => {
    const tickets = Array.from({ length: 2_500 }, (_, i) => aTicket({ id: `t${i}` }));
    const client = await holding(tickets);
    const ui = createTicketsStore();
    const ids = tickets.map((t) => t.id);
    ui.getState().setSelected(ids, true);
    const calls = stubFetch(
      {
        status: 200,
        body: {
          distributions: ids.slice(0, 1_000).map((id) => ({ ticket_id: id, distribution_id: `d-${id}`, link: 'l' })),
          failed: [],
          balance: 500,
        },
      },
      { status: 402, body: { message: 'Insufficient credits', failed: [], balance: 500 } },
      { status: 200, body: aUser({ id: 'u-1', balance: 500 }) },
    );
    const outcome = await distribute(client, ui.getState(), ids, settings);
    expect(outcome).toMatchObject({ ok: false, message: 'Insufficient credits', count: 1_000 });
    expect(calls.filter((c) => c.url === '/v1/tickets/distribute')).toHaveLength(2);
    expect(shown(client, 't999').distribution?.id).toBe('d-t999');
    expect(ui.getState().selectedIds.size).toBe(1_500);
    expect(ui.getState().distributionProblem?.message).toBe('Insufficient credits');
  });

  it('refuses nothing to distribute without a request', async () => {
    const client = await holding([]);
    const ui = createTicketsStore();
    const calls = stubFetch();
    expect(await distribute(client, ui.getState(), [], settings)).toMatchObject({ ok: false });
    expect(calls).toHaveLength(0);
  });
});

describe('recalling a link', () => {
  it('takes the link off its ticket at once', async () => {
    const client = await holding([linked('t1')]);
    const ui = createTicketsStore();
    const calls = stubFetch(
      { status: 200, body: { message: 'Ticket recalled', distribution_id: 'd-t1', ticket_id: 't1' } },
      { status: 200, body: aUser() },
    );
    expect(await recall(client, ui.getState(), 't1')).toEqual({ ok: true });
    expect(`${calls[0]!.method} ${calls[0]!.url}`).toBe('POST /v1/distributions/d-t1/recall');
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(shown(client, 't1')).toMatchObject({ is_distributed: false, distribution: null });
  });

  it("keeps the link and says why when refused, or 'Failed to recall ticket'", async () => {
    const client = await holding([linked('t1'), aTicket({ id: 't2' })]);
    const ui = createTicketsStore();
    stubFetch({ status: 409, body: { message: 'Link already recalled', code: 'ALREADY_RECALLED' } }, { status: 500 });
    expect(await recall(client, ui.getState(), 't1')).toEqual({ ok: false, message: 'Link already recalled' });
    expect(shown(client, 't1').distribution?.id).toBe('d-t1');
    expect(ui.getState().recallProblem).toEqual({ ticketId: 't1', message: 'Link already recalled' });
    // A ticket without a link: nothing is sent.
    expect(await recall(client, ui.getState(), 't2')).toEqual({ ok: false, message: 'Failed to recall ticket' });
  });
});

describe('editing a link', () => {
  const as = { expiryDate: null, maxClicks: null, label: null };

  it('sends only what changed and shows the link as the answer has it', async () => {
    const client = await holding([linked('t1')]);
    const answer = { id: 'd-t1', link: 'https://l/t1', clicks: 2, max_clicks: 9, expiry: null, label: 'for Sam' };
    const calls = stubFetch({
      status: 200,
      body: { message: 'Link updated', ticket_id: 't1', state: 'active', distribution: answer },
    });
    expect(await editLink(client, 't1', { ...as, maxClicks: 9, label: 'for Sam' })).toEqual({
      ok: true,
      changed: true,
    });
    expect(`${calls[0]!.method} ${calls[0]!.url}`).toBe('PATCH /v1/distributions/d-t1');
    expect(calls[0]!.body).toEqual({ max_clicks: 9, label: 'for Sam' });
    expect(calls[0]!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(shown(client, 't1').distribution).toEqual(answer);
  });

  it('sends nothing when nothing changed, and says why a refused edit was refused', async () => {
    const client = await holding([linked('t1')]);
    const calls = stubFetch(
      {
        status: 409,
        body: { message: 'Max clicks cannot be lower than the 2 clicks already counted', code: 'LIMIT_BELOW_CLICKS' },
      },
      { status: 500 },
    );
    expect(await editLink(client, 't1', as)).toEqual({ ok: true, changed: false });
    expect(calls.filter((c) => c.method === 'PATCH')).toHaveLength(0);
    expect(await editLink(client, 't1', { ...as, maxClicks: 1 })).toEqual({
      ok: false,
      message: 'Max clicks cannot be lower than the 2 clicks already counted',
    });
    expect(shown(client, 't1').distribution?.max_clicks).toBeNull();
    expect(await editLink(client, 'no-such-ticket', as)).toEqual({ ok: false, message: 'Failed to update link' });
  });
});

describe('many links at once', () => {
  it('edits only the settings ticked, of the selected tickets that have a link, and shows those changed', async () => {
    const client = await holding([linked('t1'), linked('t2'), aTicket({ id: 't3' })]);
    const changed = { id: 'd-t1', link: 'https://l/t1', clicks: 2, max_clicks: null, expiry: null, label: 'Box 12' };
    const calls = stubFetch({
      status: 200,
      body: {
        message: '1 link updated',
        updated: [{ ticket_id: 't1', state: 'active', distribution: changed }],
        failed: [{ distribution_id: 'd-t2', code: 'ALREADY_RECALLED', message: 'This link was already recalled' }],
      },
    });
    const outcome = await editLinks(
      client,
      ['t1', 't2', 't3'],
      { expiryDate: '2027-01-01T12:00:00.000Z', maxClicks: 5, label: 'Box 12' },
      { expiry: false, limit: false, label: true, pin: false },
    );
    expect(outcome).toEqual({
      ok: true,
      done: 1,
      failed: [{ distribution_id: 'd-t2', code: 'ALREADY_RECALLED', message: 'This link was already recalled' }],
    });
    expect(`${calls[0]!.method} ${calls[0]!.url}`).toBe('PATCH /v1/distributions');
    expect(calls[0]!.body).toEqual({ distribution_ids: ['d-t1', 'd-t2'], label: 'Box 12' });
    expect(shown(client, 't1').distribution?.label).toBe('Box 12');
  });

  it('recalls the links of the selected tickets; those recalled leave their tickets and are unticked', async () => {
    const client = await holding([linked('t1'), linked('t2')]);
    const ui = createTicketsStore();
    ui.getState().setSelected(['t1', 't2'], true);
    const calls = stubFetch(
      {
        status: 200,
        body: {
          message: '1 link recalled',
          recalled: [{ distribution_id: 'd-t1', ticket_id: 't1' }],
          failed: [{ distribution_id: 'd-t2', code: 'DISTRIBUTION_NOT_FOUND', message: 'Distribution not found' }],
        },
      },
      { status: 200, body: aUser() },
    );
    expect(await recallLinks(client, ui.getState(), ['t1', 't2'])).toMatchObject({ ok: true, done: 1 });
    expect(calls[0]!.body).toEqual({ distribution_ids: ['d-t1', 'd-t2'] });
    expect(shown(client, 't1').distribution).toBeNull();
    expect(shown(client, 't2').distribution?.id).toBe('d-t2');
    expect([...ui.getState().selectedIds]).toEqual(['t2']);
    // Refused whole: why, and the list.
    stubFetch({
      status: 404,
      body: {
        message: 'Distribution not found',
        code: 'DISTRIBUTION_NOT_FOUND',
        failed: [{ distribution_id: 'd-t2' }],
      },
    });
    expect(await recallLinks(client, ui.getState(), ['t2'])).toMatchObject({
      ok: false,
      message: 'Distribution not found',
      failed: [{ distribution_id: 'd-t2' }],
    });
  });

  it('recalls thousands of links in parts of 1,000, and says how many went before a part failed', async () => {
    const tickets = Array.from({ length: 1_500 }, (_, i) => linked(`t${i}`));
    const client = await holding(tickets);
    const ui = createTicketsStore();
    const calls = stubFetch(
      {
        status: 200,
        body: {
          message: '1000 links recalled',
          recalled: tickets.slice(0, 1_000).map((t) => ({ distribution_id: `d-${t.id}`, ticket_id: t.id })),
          failed: [],
        },
      },
      { status: 500 },
      { status: 200, body: aUser() },
    );
    const outcome = await recallLinks(
      client,
      ui.getState(),
      tickets.map((t) => t.id),
    );
    expect(outcome).toMatchObject({ ok: false, done: 1_000, message: 'Failed to recall links' });
    const sent = calls.filter((c) => c.url === '/v1/distributions/recall');
    expect(sent.map((c) => (c.body as { distribution_ids: string[] }).distribution_ids.length)).toEqual([1_000, 500]);
    expect(shown(client, 't999').distribution).toBeNull();
    expect(shown(client, 't1000').distribution?.id).toBe('d-t1000');
  });
});
