import { describe, expect, it } from 'vitest';
import { mustEnrolForAdmin, TWO_FACTOR_SETUP } from './admin-mfa';

const status = (over: Partial<Parameters<typeof mustEnrolForAdmin>[0] & object> = {}) => ({
  totp: false,
  required: true,
  passkeys: 0,
  recovery_codes_left: 0,
  ...over,
});

describe('the admin gate in the dashboard', () => {
  it('holds an admin the server asks a second factor of, until they have one', () => {
    expect(mustEnrolForAdmin(status())).toBe(true);
    expect(mustEnrolForAdmin(status({ totp: true, recovery_codes_left: 10 }))).toBe(false);
    // A passkey is a second factor as an app is (the server lets such an admin in).
    expect(mustEnrolForAdmin(status({ passkeys: 1 }))).toBe(false);
  });

  it('holds nobody the server asks nothing of, nor while it has not answered', () => {
    expect(mustEnrolForAdmin(status({ required: false }))).toBe(false);
    expect(mustEnrolForAdmin(undefined)).toBe(false);
  });

  it('leads to the authenticator setup on Settings', () => {
    expect(TWO_FACTOR_SETUP).toBe('/dashboard/settings#two-factor');
  });
});
