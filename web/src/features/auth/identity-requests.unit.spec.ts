import { MutationObserver } from '@tanstack/react-query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/fetch-stub';
import { IDLE_REQUEST } from '../../lib/request-form';
import { requestForm } from '../../testing/mutation';
import { forgotPassword } from './api/forgot-password';
import { register } from './api/register';
import { FORGOT_PASSWORD_FAILED, REGISTRATION_FAILED } from './auth.constants';
import { createQueryClient } from '../../lib/create-query-client';
import { resetPassword } from './api/reset-password';
import {
  onceFor,
  RESET_PASSWORD_FAILED,
  resetTokenQuery,
  VERIFICATION_TOKEN_MISSING,
  verificationError,
  verifyEmailMutation,
} from './auth.queries';

afterEach(() => {
  vi.unstubAllGlobals();
});

const registration = {
  email: 'new@seatlink.test',
  first_name: 'Nia',
  last_name: 'New',
  password: 'Newpass1!',
  invite_code: 'ABCD-1234',
  token: null,
};

describe('forgot-password form', () => {
  it('goes loading, then success, posting the e-mail with cookies', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'If an account exists...' } });
    const form = requestForm(forgotPassword, FORGOT_PASSWORD_FAILED);

    const pending = form.submit({ email: 'a@seatlink.test' });
    expect(form.state()).toMatchObject({ loading: true, error: null, success: false });
    await expect(pending).resolves.toBe(true);

    expect(calls).toEqual([
      { url: '/v1/forgot-password', method: 'POST', body: { email: 'a@seatlink.test' }, credentials: 'include' },
    ]);
    expect(form.state()).toMatchObject({ loading: false, error: null, success: true });
  });

  it('keeps the error as returned, and a reset goes back to idle', async () => {
    stubFetch({ status: 429, body: { message: 'Too many requests' } }, { status: 500 });
    const form = requestForm(forgotPassword, FORGOT_PASSWORD_FAILED);

    await expect(form.submit({ email: 'a@seatlink.test' })).resolves.toBe(false);
    expect(form.state()).toMatchObject({ loading: false, error: 'Too many requests', success: false });

    await form.submit({ email: 'a@seatlink.test' });
    expect(form.state().error).toBe('Something went wrong');

    form.reset();
    expect(form.state()).toEqual(IDLE_REQUEST);
  });

  it('ignores the answer to a request sent before a reset (the modal closed)', async () => {
    stubFetch({ status: 200, body: { message: 'ok' } });
    const form = requestForm(forgotPassword, FORGOT_PASSWORD_FAILED);
    const pending = form.submit({ email: 'a@seatlink.test' });
    form.reset();
    await pending;
    expect(form.state()).toEqual(IDLE_REQUEST);
  });
});

describe('registration form', () => {
  it('posts the registration payload and keeps the server message', async () => {
    const calls = stubFetch({ status: 201, body: { message: 'Registration successful.' } });
    const form = requestForm(register, REGISTRATION_FAILED);

    const pending = form.submit(registration);
    expect(form.state()).toMatchObject({ loading: true, error: null, success: false, message: null });
    await expect(pending).resolves.toBe(true);

    expect(calls).toEqual([{ url: '/v1/auth/register', method: 'POST', body: registration, credentials: 'include' }]);
    expect(form.state()).toMatchObject({
      loading: false,
      error: null,
      success: true,
      message: 'Registration successful.',
    });
  });

  it("keeps the server message or 'Registration failed'", async () => {
    stubFetch({ status: 400, body: { message: 'Invite code has expired' } }, new TypeError('Failed to fetch'));
    const form = requestForm(register, REGISTRATION_FAILED);

    await expect(form.submit(registration)).resolves.toBe(false);
    expect(form.state()).toMatchObject({ loading: false, error: 'Invite code has expired', success: false });

    await form.submit(registration);
    expect(form.state().error).toBe('Registration failed');

    form.reset();
    expect(form.state()).toEqual(IDLE_REQUEST);
  });
});

describe('reset-password page', () => {
  it('finds the token usable when it checks out', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Reset token is valid' } });
    const client = createQueryClient();
    await expect(client.fetchQuery(resetTokenQuery('tok'))).resolves.toEqual({ valid: true, message: null });
    expect(calls).toEqual([
      { url: '/v1/auth/validate-reset-token', method: 'POST', body: { token: 'tok' }, credentials: 'include' },
    ]);
  });

  it('finds it unusable, with the server message, when it does not', async () => {
    stubFetch(
      { status: 400, body: { message: 'This password reset link is invalid or has expired.' } },
      { status: 500 },
    );
    const client = createQueryClient();
    await expect(client.fetchQuery(resetTokenQuery('tok'))).resolves.toEqual({
      valid: false,
      message: 'This password reset link is invalid or has expired.',
    });
    await expect(client.fetchQuery(resetTokenQuery('other'))).resolves.toEqual({ valid: false, message: null });
  });

  it('joins a check of the same token that is still under way (StrictMode)', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'ok' } });
    const client = createQueryClient();
    const [first, second] = await Promise.all([
      client.fetchQuery(resetTokenQuery('tok')),
      client.fetchQuery(resetTokenQuery('tok')),
    ]);
    expect(calls).toHaveLength(1);
    expect(first.valid && second.valid).toBe(true);
  });

  it('resets the password without cookies', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Password reset successfully' } });
    const form = requestForm(resetPassword, RESET_PASSWORD_FAILED);

    await expect(form.submit({ token: 'tok', password: 'Newpass1!' })).resolves.toBe(true);

    expect(calls).toEqual([
      {
        url: '/v1/auth/reset-password',
        method: 'POST',
        body: { token: 'tok', password: 'Newpass1!' },
        credentials: 'omit',
      },
    ]);
    expect(form.state()).toMatchObject({ loading: false, success: true, error: null });
  });

  it("keeps the server message or 'Failed to reset password'", async () => {
    stubFetch({ status: 400, body: { message: 'Token expired' } }, { status: 500 });
    const form = requestForm(resetPassword, RESET_PASSWORD_FAILED);
    await expect(form.submit({ token: 'tok', password: 'Newpass1!' })).resolves.toBe(false);
    expect(form.state()).toMatchObject({ loading: false, success: false, error: 'Token expired' });
    await form.submit({ token: 'tok', password: 'Newpass1!' });
    expect(form.state().error).toBe('Failed to reset password');
  });
});

describe('e-mail verification', () => {
  const verification = () => new MutationObserver(createQueryClient(), verifyEmailMutation);

  it('verifies, then keeps the server message', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Email verified successfully. You can now sign in.' } });

    await expect(verification().mutate('tok')).resolves.toEqual({
      message: 'Email verified successfully. You can now sign in.',
    });
    expect(calls).toEqual([
      { url: '/v1/auth/verify-email', method: 'POST', body: { token: 'tok' }, credentials: 'include' },
    ]);
  });

  it('sends a token once: a failure is not retried', async () => {
    const calls = stubFetch({ status: 500 }, { status: 200, body: { message: 'ok' } });
    const observer = verification();
    await expect(observer.mutate('tok')).rejects.toBeDefined();
    expect(calls).toHaveLength(1);
    expect(observer.getCurrentResult().status).toBe('error');
  });

  it('lets each token through its guard once, however often it is asked', () => {
    const firstTime = onceFor<string>();
    expect([firstTime('tok'), firstTime('tok'), firstTime('tok')]).toEqual([true, false, false]);
    expect([firstTime('other'), firstTime('other')]).toEqual([true, false]);
  });

  it("takes the failure from field error, then message, then 'Email verification failed'", async () => {
    stubFetch(
      { status: 400, body: { error: 'Link expired', message: 'Bad Request' } },
      { status: 400, body: { message: 'Token is not valid' } },
      { status: 500 },
    );
    const failure = (token: string) =>
      verification()
        .mutate(token)
        .then(() => null, verificationError);
    await expect(failure('a')).resolves.toBe('Link expired');
    await expect(failure('b')).resolves.toBe('Token is not valid');
    await expect(failure('c')).resolves.toBe('Email verification failed');
  });

  it("says 'Verification token is missing'", () => {
    expect(VERIFICATION_TOKEN_MISSING).toBe('Verification token is missing');
  });
});
