import { describe, expect, it } from 'vitest';
import { aUser } from '../testing/fixtures';
import { createCreditsStore } from './credits.store';
import { createSessionStore } from './session.store';

function setup() {
  const credits = createCreditsStore();
  const session = createSessionStore(credits);
  return { credits, session };
}

describe('session and credits slices', () => {
  it('keeps the user in the session and the balance in the credits slice', () => {
    const { credits, session } = setup();
    session.getState().signedIn(aUser({ id: 'me', balance: 10 }));

    expect(session.getState()).toMatchObject({
      isAuthenticated: true,
      user: { id: 'me', email: 'user@seatlink.test' },
    });
    expect(session.getState().user).not.toHaveProperty('balance');
    expect(credits.getState()).toMatchObject({ userId: 'me', balance: 10 });
  });

  it('applies balance.updated to the signed-in user only', () => {
    const { credits, session } = setup();
    session.getState().signedIn(aUser({ id: 'me', balance: 10 }));

    credits.getState().apply('someone-else', 99);
    expect(credits.getState().balance).toBe(10);

    credits.getState().apply('me', 42);
    expect(credits.getState().balance).toBe(42);
  });

  it('takes a newer copy of the signed-in user, and ignores other users', () => {
    const { credits, session } = setup();
    session.getState().signedIn(aUser({ id: 'me', balance: 10 }));

    session.getState().userChanged(aUser({ id: 'other', balance: 500, first_name: 'Olly' }));
    expect(credits.getState().balance).toBe(10);
    expect(session.getState().user?.first_name).toBe('Uma');

    session.getState().userChanged(aUser({ id: 'me', balance: 250, first_name: 'Umi' }));
    expect(credits.getState().balance).toBe(250);
    expect(session.getState().user?.first_name).toBe('Umi');
  });

  it('signs out both slices', () => {
    const { credits, session } = setup();
    session.getState().signedIn(aUser({ id: 'me', balance: 10 }));
    session.getState().signedOut();

    expect(session.getState()).toMatchObject({ loading: false, isAuthenticated: false, user: null });
    expect(credits.getState()).toMatchObject({ userId: null, balance: 0 });
  });
});
