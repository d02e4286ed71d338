import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../testing/fetch-stub';
import { aUser } from '../testing/fixtures';
import { request } from './api-client';
import { createResourceStore } from './resource-store';
import { useSessionStore } from './session.store';

afterEach(() => {
  vi.unstubAllGlobals();
});

const store = () =>
  createResourceStore((id: string) => request<{ id: string }>(`/things/${id}`), 'Failed to fetch thing');

describe('resource store', () => {
  it('loads what it is asked for', async () => {
    stubFetch({ status: 200, body: { id: 'a' } });
    const things = store();
    const pending = things.getState().fetch('a');
    expect(things.getState()).toMatchObject({ loading: true, param: 'a', data: null });
    await pending;
    expect(things.getState()).toMatchObject({ loading: false, param: 'a', data: { id: 'a' }, error: null });
  });

  it('keeps the message and status of a failure (404: not found), or the fallback', async () => {
    stubFetch({ status: 404, body: { message: 'Account not found' } }, { status: 500 });
    const things = store();
    await things.getState().fetch('a');
    expect(things.getState()).toMatchObject({ error: 'Account not found', errorStatus: 404, data: null });
    await things.getState().fetch('a');
    expect(things.getState()).toMatchObject({ error: 'Failed to fetch thing', errorStatus: 500 });
  });

  it('keeps what is shown when a silent refresh fails, and drops it for another param', async () => {
    stubFetch({ status: 200, body: { id: 'a' } }, { status: 500 }, { status: 200, body: { id: 'b' } });
    const things = store();
    await things.getState().fetch('a');
    await things.getState().fetch('a', { silent: true });
    expect(things.getState()).toMatchObject({ data: { id: 'a' }, error: null });
    const next = things.getState().fetch('b', { silent: true });
    expect(things.getState()).toMatchObject({ data: null, param: 'b', loading: true });
    await next;
    expect(things.getState().data).toEqual({ id: 'b' });
  });

  it('drops what is shown when a refresh finds it gone (404)', async () => {
    stubFetch({ status: 200, body: { id: 'a' } }, { status: 404, body: { message: 'Account not found' } });
    const things = store();
    await things.getState().fetch('a');
    await things.getState().fetch('a', { silent: true });
    expect(things.getState()).toMatchObject({ data: null, errorStatus: 404, error: 'Account not found' });
  });

  it('applies only the latest answer', async () => {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const things = createResourceStore(async (id: string) => {
      if (id === 'slow') await held;
      return { id };
    }, 'x');
    const slow = things.getState().fetch('slow');
    await things.getState().fetch('fast');
    release();
    await slow;
    expect(things.getState()).toMatchObject({ param: 'fast', data: { id: 'fast' } });
  });

  it('empties when the signed-in user changes', async () => {
    stubFetch({ status: 200, body: { id: 'a' } });
    const things = store();
    useSessionStore.getState().signedIn(aUser({ id: 'one' }));
    await things.getState().fetch('a');
    useSessionStore.getState().signedOut();
    expect(things.getState()).toMatchObject({ data: null, param: null });
  });
});
