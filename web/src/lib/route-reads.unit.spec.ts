import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LoaderFunctionArgs } from 'react-router-dom';
import { aUser } from '../testing/fixtures';
import { queryClient } from './query-client';
import { readsAhead } from './route-reads';
import { useSessionStore } from './session.store';

/** A navigation's loader arguments, and `givenUp` to give it up (another link followed meanwhile). */
function navigation() {
  const controller = new AbortController();
  const args = { request: new Request('http://localhost/dashboard', { signal: controller.signal }), params: {} };
  return { args: args as unknown as LoaderFunctionArgs, givenUp: () => controller.abort() };
}
const args = navigation().args;

afterEach(() => {
  useSessionStore.getState().signedOut();
});

describe('reads started with a navigation (route-reads.ts)', () => {
  it('starts them once the status check says the visitor is signed in, without waiting for them', async () => {
    useSessionStore.getState().checking();
    const start = vi.fn();
    const loaded = Promise.resolve(readsAhead(start)(args));
    await new Promise((resolve) => setTimeout(resolve, 5));
    // The status check has not answered: nothing is read yet.
    expect(start).not.toHaveBeenCalled();

    useSessionStore.getState().signedIn(aUser({ id: 'me' }));
    await expect(loaded).resolves.toBeNull();
    expect(start).toHaveBeenCalledTimes(1);
    expect(start).toHaveBeenCalledWith(queryClient);
  });

  it('reads nothing for a visitor who is not signed in', async () => {
    useSessionStore.getState().checking();
    const start = vi.fn();
    const loaded = Promise.resolve(readsAhead(start)(args));
    useSessionStore.getState().signedOut();
    await expect(loaded).resolves.toBeNull();
    expect(start).not.toHaveBeenCalled();
  });

  it('starts them at once when the status check has already answered, in a task after the navigation', async () => {
    useSessionStore.getState().signedIn(aUser({ id: 'me' }));
    const start = vi.fn();
    const loaded = Promise.resolve(readsAhead(start)(args));
    await Promise.resolve();
    expect(start).not.toHaveBeenCalled();
    await expect(loaded).resolves.toBeNull();
    expect(start).toHaveBeenCalledTimes(1);
  });

  it('reads nothing for a navigation given up while it waited', async () => {
    useSessionStore.getState().checking();
    const start = vi.fn();
    const nav = navigation();
    const loaded = Promise.resolve(readsAhead(start)(nav.args));
    nav.givenUp();
    useSessionStore.getState().signedIn(aUser({ id: 'me' }));
    await expect(loaded).resolves.toBeNull();
    expect(start).not.toHaveBeenCalled();
  });
});
