import { afterEach, describe, expect, it, vi } from 'vitest';
import { stubFetch } from '../../testing/fetch-stub';
import { initialRequestState } from '../../lib/request-store';
import { createForgotPasswordStore } from './forgot-password.store';
import { createRegistrationStore } from './registration.store';
import { createResetPasswordStore, initialResetPasswordState } from './reset-password.store';
import { createVerifyEmailStore, VERIFICATION_TOKEN_MISSING } from './verify-email.store';

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

describe('forgot-password slice', () => {
  it('goes loading, then success, posting the e-mail with cookies', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'If an account exists...' } });
    const store = createForgotPasswordStore();

    const pending = store.getState().submit({ email: 'a@seatlink.test' });
    expect(store.getState()).toMatchObject({ loading: true, error: null, success: false });
    await expect(pending).resolves.toBe(true);

    expect(calls).toEqual([
      { url: '/v1/forgot-password', method: 'POST', body: { email: 'a@seatlink.test' }, credentials: 'include' },
    ]);
    expect(store.getState()).toMatchObject({ loading: false, error: null, success: true });
  });

  it('stores the error as returned, and clear goes back to idle', async () => {
    stubFetch({ status: 429, body: { message: 'Too many requests' } }, { status: 500 });
    const store = createForgotPasswordStore();

    await expect(store.getState().submit({ email: 'a@seatlink.test' })).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ loading: false, error: 'Too many requests', success: false });

    await store.getState().submit({ email: 'a@seatlink.test' });
    expect(store.getState().error).toBe('Something went wrong');

    store.getState().clear();
    expect(store.getState()).toMatchObject(initialRequestState);
  });

  it('ignores the answer to a request sent before clear (the modal closed)', async () => {
    stubFetch({ status: 200, body: { message: 'ok' } });
    const store = createForgotPasswordStore();
    const pending = store.getState().submit({ email: 'a@seatlink.test' });
    store.getState().clear();
    await pending;
    expect(store.getState()).toMatchObject(initialRequestState);
  });
});

describe('registration slice', () => {
  it('posts the registration payload and keeps the server message', async () => {
    const calls = stubFetch({ status: 201, body: { message: 'Registration successful.' } });
    const store = createRegistrationStore();

    const pending = store.getState().submit(registration);
    expect(store.getState()).toMatchObject({ loading: true, error: null, success: false, message: null });
    await expect(pending).resolves.toBe(true);

    expect(calls).toEqual([{ url: '/v1/auth/register', method: 'POST', body: registration, credentials: 'include' }]);
    expect(store.getState()).toMatchObject({
      loading: false,
      error: null,
      success: true,
      message: 'Registration successful.',
    });
  });

  it("stores the server message or 'Registration failed'", async () => {
    stubFetch({ status: 400, body: { message: 'Invite code has expired' } }, new TypeError('Failed to fetch'));
    const store = createRegistrationStore();

    await expect(store.getState().submit(registration)).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ loading: false, error: 'Invite code has expired', success: false });

    await store.getState().submit(registration);
    expect(store.getState().error).toBe('Registration failed');

    store.getState().clearError();
    expect(store.getState().error).toBeNull();
    store.getState().clear();
    expect(store.getState()).toMatchObject(initialRequestState);
  });
});

describe('reset-password slice', () => {
  it('sets tokenValid true when the token checks out', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Reset token is valid' } });
    const store = createResetPasswordStore();

    const pending = store.getState().validateToken('tok');
    expect(store.getState().tokenValid).toBeNull();
    await pending;

    expect(calls).toEqual([
      { url: '/v1/auth/validate-reset-token', method: 'POST', body: { token: 'tok' }, credentials: 'include' },
    ]);
    expect(store.getState()).toMatchObject({ tokenValid: true, error: null });
  });

  it('sets tokenValid false, with the server message, when it does not', async () => {
    stubFetch({ status: 400, body: { message: 'This password reset link is invalid or has expired.' } });
    const store = createResetPasswordStore();
    await store.getState().validateToken('tok');
    expect(store.getState()).toMatchObject({
      tokenValid: false,
      error: 'This password reset link is invalid or has expired.',
    });
  });

  it('joins a check of the same token that is still under way (StrictMode)', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'ok' } });
    const store = createResetPasswordStore();
    const first = store.getState().validateToken('tok');
    store.getState().clear();
    const second = store.getState().validateToken('tok');
    await Promise.all([first, second]);
    expect(calls).toHaveLength(1);
    expect(store.getState().tokenValid).toBe(true);
  });

  it('resets the password without cookies', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Password reset successfully' } });
    const store = createResetPasswordStore();
    store.setState({ tokenValid: true });

    await expect(store.getState().resetPassword('tok', 'Newpass1!')).resolves.toBe(true);

    expect(calls).toEqual([
      {
        url: '/v1/auth/reset-password',
        method: 'POST',
        body: { token: 'tok', password: 'Newpass1!' },
        credentials: 'omit',
      },
    ]);
    expect(store.getState()).toMatchObject({ loading: false, success: true, error: null });
  });

  it("stores the server message or 'Failed to reset password'", async () => {
    stubFetch({ status: 400, body: { message: 'Token expired' } }, { status: 500 });
    const store = createResetPasswordStore();
    await expect(store.getState().resetPassword('tok', 'Newpass1!')).resolves.toBe(false);
    expect(store.getState()).toMatchObject({ loading: false, success: false, error: 'Token expired' });
    await store.getState().resetPassword('tok', 'Newpass1!');
    expect(store.getState().error).toBe('Failed to reset password');
    store.getState().clear();
    expect(store.getState()).toMatchObject(initialResetPasswordState);
  });
});

describe('e-mail verification', () => {
  it('goes verifying, then success with the server message', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'Email verified successfully. You can now sign in.' } });
    const store = createVerifyEmailStore();

    const pending = store.getState().verify('tok');
    expect(store.getState()).toMatchObject({ status: 'verifying', token: 'tok' });
    await pending;

    expect(calls).toEqual([
      { url: '/v1/auth/verify-email', method: 'POST', body: { token: 'tok' }, credentials: 'include' },
    ]);
    expect(store.getState()).toMatchObject({
      status: 'success',
      message: 'Email verified successfully. You can now sign in.',
    });
  });

  it('calls the API once per token, however often it is asked', async () => {
    const calls = stubFetch({ status: 200, body: { message: 'ok' } });
    const store = createVerifyEmailStore();
    await Promise.all([store.getState().verify('tok'), store.getState().verify('tok')]);
    await store.getState().verify('tok');
    expect(calls).toHaveLength(1);
  });

  it("takes the failure from field error, then message, then 'Email verification failed'", async () => {
    stubFetch(
      { status: 400, body: { error: 'Link expired', message: 'Bad Request' } },
      { status: 400, body: { message: 'Token is not valid' } },
      { status: 500 },
    );
    const store = createVerifyEmailStore();
    await store.getState().verify('a');
    expect(store.getState()).toMatchObject({ status: 'error', error: 'Link expired' });
    await store.getState().verify('b');
    expect(store.getState().error).toBe('Token is not valid');
    await store.getState().verify('c');
    expect(store.getState().error).toBe('Email verification failed');
  });

  it("says 'Verification token is missing' without a call", () => {
    const calls = stubFetch();
    const store = createVerifyEmailStore();
    store.getState().missingToken();
    expect(store.getState()).toMatchObject({ status: 'error', error: VERIFICATION_TOKEN_MISSING });
    expect(VERIFICATION_TOKEN_MISSING).toBe('Verification token is missing');
    expect(calls).toHaveLength(0);
  });
});
