import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/fetch-stub';
import { INVALID_EMAIL_MESSAGE, isValidWaitlistEmail, WAITLIST_FAILED } from './waitlist-email';
import { IDLE_REQUEST } from '../../lib/request-form';
import { requestForm } from '../../testing/mutation';
import { joinWaitlist } from './api/join-waitlist';

afterEach(() => {
  vi.unstubAllGlobals();
});

const entry = { email: 'fan@seatlink.test', first_name: 'Fay', last_name: 'Fan', token: null };

describe('waitlist e-mail pattern (docs/reference.md#form-rules)', () => {
  it('accepts text @ text . two or more letters', () => {
    for (const email of ['a@b.co', 'first.last+tag@mail.example.org', ' fan@seatlink.test ']) {
      expect(isValidWaitlistEmail(email)).toBe(true);
    }
  });

  it('rejects anything else', () => {
    for (const email of [
      '',
      'fan',
      'fan@',
      '@b.co',
      'fan@seatlink',
      'fan@seatlink.c',
      'fan@seatlink.c0m',
      'a b@c.de',
    ]) {
      expect(isValidWaitlistEmail(email)).toBe(false);
    }
    expect(INVALID_EMAIL_MESSAGE).toBe('Please enter a valid email address');
  });
});

describe('waitlist form', () => {
  it('goes loading, then success with the server message', async () => {
    const calls = stubFetch({ status: 200, body: { message: "You're on the list!" } });
    const form = requestForm(joinWaitlist, WAITLIST_FAILED);

    const pending = form.submit(entry);
    expect(form.state()).toMatchObject({ loading: true, error: null, success: false });
    await expect(pending).resolves.toBe(true);

    expect(calls).toEqual([{ url: '/v1/waitlist', method: 'POST', body: entry, credentials: 'include' }]);
    expect(form.state()).toMatchObject({ loading: false, success: true, message: "You're on the list!" });
  });

  it('clears the previous error at each new submit', async () => {
    stubFetch(
      { status: 403, body: { message: 'Human verification failed. Please try again.' } },
      { status: 200, body: { message: 'ok' } },
    );
    const form = requestForm(joinWaitlist, WAITLIST_FAILED);

    await expect(form.submit(entry)).resolves.toBe(false);
    expect(form.state().error).toBe('Human verification failed. Please try again.');

    const pending = form.submit(entry);
    expect(form.state().error).toBeNull();
    await pending;
    expect(form.state()).toMatchObject({ success: true, error: null });

    form.reset();
    expect(form.state()).toEqual(IDLE_REQUEST);
  });
});
