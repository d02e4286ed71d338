import { createHash, createSign, generateKeyPairSync, type KeyObject, randomBytes } from 'node:crypto';
import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
  RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoCBOR } from '@simplewebauthn/server/helpers';

interface Held {
  id: string;
  privateKey: KeyObject;
  rpId: string;
  userHandle: string;
  counter: number;
}

/** Authenticator data flags (WebAuthn §6.1). */
const USER_PRESENT = 0x01;
const USER_VERIFIED = 0x04;
const ATTESTED_CREDENTIAL = 0x40;

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/**
 * A software passkey authenticator for the API tests: it answers the options the server gives as a browser with a
 * platform authenticator would (ES256 keys, "none" attestation, the person verified unless told not to), from
 * `origin`. The browser tests use Chromium's own virtual authenticator instead.
 */
export class SoftAuthenticator {
  private readonly held = new Map<string, Held>();

  constructor(private readonly origin: string) {}

  /** Answers `navigator.credentials.create(options)`: a new discoverable passkey for the options' user. */
  create(
    options: PublicKeyCredentialCreationOptionsJSON,
    tweak: { origin?: string; challenge?: string; credentialId?: string } = {},
  ): RegistrationResponseJSON {
    const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const jwk = publicKey.export({ format: 'jwk' });
    const credentialId = tweak.credentialId ? Buffer.from(tweak.credentialId, 'base64url') : randomBytes(32);
    const id = isoBase64URL.fromBuffer(credentialId);
    const coseKey = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, isoBase64URL.toBuffer(jwk.x!)],
        [-3, isoBase64URL.toBuffer(jwk.y!)],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(credentialId.length);
    const authData = Buffer.concat([
      sha256(options.rp.id!),
      Buffer.from([USER_PRESENT | USER_VERIFIED | ATTESTED_CREDENTIAL]),
      u32(0),
      Buffer.alloc(16), // AAGUID: none
      idLength,
      credentialId,
      Buffer.from(coseKey),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    this.held.set(id, { id, privateKey, rpId: options.rp.id!, userHandle: options.user.id, counter: 0 });
    return {
      id,
      rawId: id,
      type: 'public-key',
      response: {
        clientDataJSON: this.clientData('webauthn.create', tweak.challenge ?? options.challenge, tweak.origin),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ['internal'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /**
   * Answers `navigator.credentials.get(options)` with the passkey `id` (or the first this authenticator holds that the
   * options allow). `verified: false` is a touch without the PIN or fingerprint.
   */
  get(
    options: PublicKeyCredentialRequestOptionsJSON,
    tweak: { id?: string; verified?: boolean; origin?: string; userHandle?: string | null } = {},
  ): AuthenticationResponseJSON {
    const allowed = options.allowCredentials?.map((c) => c.id) ?? [];
    const held = [...this.held.values()].find(
      (h) => h.rpId === options.rpId && (tweak.id ? h.id === tweak.id : allowed.length === 0 || allowed.includes(h.id)),
    );
    if (!held) throw new Error('this authenticator holds no passkey the options allow');
    held.counter += 1;
    const flags = USER_PRESENT | (tweak.verified === false ? 0 : USER_VERIFIED);
    const authData = Buffer.concat([sha256(held.rpId), Buffer.from([flags]), u32(held.counter)]);
    const clientDataJSON = this.clientData('webauthn.get', options.challenge, tweak.origin);
    const signer = createSign('SHA256');
    signer.update(Buffer.concat([authData, sha256(isoBase64URL.toBuffer(clientDataJSON))]));
    const userHandle = tweak.userHandle === undefined ? held.userHandle : tweak.userHandle;
    return {
      id: held.id,
      rawId: held.id,
      type: 'public-key',
      response: {
        clientDataJSON,
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(signer.sign(held.privateKey)),
        ...(userHandle === null ? {} : { userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: 'platform',
    };
  }

  /** Sets a passkey's signature counter back (as a copy of the authenticator made earlier would show). */
  rewind(id: string, counter: number) {
    this.held.get(id)!.counter = counter;
  }

  private clientData(type: string, challenge: string, origin = this.origin) {
    return isoBase64URL.fromUTF8String(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }
}
