import { PASSKEY_MESSAGES } from '@seatlink/contracts';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/browser';

/**
 * The browser's side of passkeys (@simplewebauthn/browser, loaded only when a passkey is used: the sign-in page does
 * not carry it). A ceremony the person cancels, or the device refuses, is a PasskeyNotUsed with words for them.
 */
export class PasskeyNotUsed extends Error {
  constructor(message: string = PASSKEY_MESSAGES.notUsed) {
    super(message);
    this.name = 'PasskeyNotUsed';
  }
}

/** Whether this browser can make and use passkeys at all (WebAuthn is there). */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function';
}

const library = () => import('@simplewebauthn/browser');

/** The browser's refusal in words: a passkey already added, a page at an address passkeys are not for, or not used. */
function notUsed(error: unknown): PasskeyNotUsed {
  const { code, name } = (error ?? {}) as { code?: unknown; name?: unknown };
  if (code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return new PasskeyNotUsed(PASSKEY_MESSAGES.exists);
  if (code === 'ERROR_INVALID_DOMAIN' || code === 'ERROR_INVALID_RP_ID' || name === 'SecurityError') {
    return new PasskeyNotUsed(PASSKEY_MESSAGES.wrongAddress);
  }
  return new PasskeyNotUsed(PASSKEY_MESSAGES.notUsed);
}

/** Makes a passkey for the server's registration options (navigator.credentials.create). */
export async function createPasskey(
  optionsJSON: PublicKeyCredentialCreationOptionsJSON,
): Promise<RegistrationResponseJSON> {
  if (!passkeysSupported()) throw new PasskeyNotUsed(PASSKEY_MESSAGES.unsupported);
  const { startRegistration } = await library();
  try {
    return await startRegistration({ optionsJSON });
  } catch (error) {
    throw notUsed(error);
  }
}

/** Signs the server's challenge with a passkey (navigator.credentials.get). */
export async function signWithPasskey(
  optionsJSON: PublicKeyCredentialRequestOptionsJSON,
): Promise<AuthenticationResponseJSON> {
  if (!passkeysSupported()) throw new PasskeyNotUsed(PASSKEY_MESSAGES.unsupported);
  const { startAuthentication } = await library();
  try {
    return await startAuthentication({ optionsJSON });
  } catch (error) {
    throw notUsed(error);
  }
}
