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

function notUsed(error: unknown): PasskeyNotUsed {
  const code = (error as { code?: unknown } | null)?.code;
  return new PasskeyNotUsed(
    code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED' ? PASSKEY_MESSAGES.exists : PASSKEY_MESSAGES.notUsed,
  );
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
