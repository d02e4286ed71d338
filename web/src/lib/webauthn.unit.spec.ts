import { afterEach, describe, expect, it, vi } from 'vitest';

const startRegistration = vi.fn();
const startAuthentication = vi.fn();
vi.mock('@simplewebauthn/browser', () => ({ startRegistration, startAuthentication }));

const { createPasskey, signWithPasskey, PasskeyNotUsed } = await import('./webauthn');

const options = { challenge: 'c', rpId: 'localhost' } as never;

afterEach(() => {
  vi.unstubAllGlobals();
  startRegistration.mockReset();
  startAuthentication.mockReset();
});

describe('the browser’s side of passkeys', () => {
  it('says when the browser has no passkeys at all, before asking it', async () => {
    vi.stubGlobal('window', {});
    await expect(signWithPasskey(options)).rejects.toThrow('This browser cannot use passkeys');
    expect(startAuthentication).not.toHaveBeenCalled();
  });

  it('puts the browser’s refusals in words: cancelled, already added, a page at another address', async () => {
    vi.stubGlobal('window', { PublicKeyCredential: function PublicKeyCredential() {} });
    const refusals: Array<[unknown, string]> = [
      [Object.assign(new Error('x'), { name: 'NotAllowedError' }), 'Your passkey was not used. Try again.'],
      [{ code: 'ERROR_CEREMONY_ABORTED' }, 'Your passkey was not used. Try again.'],
      [{ code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' }, 'That passkey is already added'],
      [{ code: 'ERROR_INVALID_RP_ID' }, 'Passkeys do not work at this address: open Seatlink at its own address'],
      [
        Object.assign(new Error('x'), { name: 'SecurityError' }),
        'Passkeys do not work at this address: open Seatlink at its own address',
      ],
      [null, 'Your passkey was not used. Try again.'],
    ];
    for (const [refusal, words] of refusals) {
      startRegistration.mockRejectedValueOnce(refusal);
      const error = await createPasskey(options).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PasskeyNotUsed);
      expect((error as Error).message).toBe(words);
    }
  });

  it('answers what the browser made', async () => {
    vi.stubGlobal('window', { PublicKeyCredential: function PublicKeyCredential() {} });
    startAuthentication.mockResolvedValueOnce({ id: 'abc' });
    await expect(signWithPasskey(options)).resolves.toEqual({ id: 'abc' });
    expect(startAuthentication).toHaveBeenCalledWith({ optionsJSON: options });
  });
});
