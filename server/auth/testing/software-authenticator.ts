import { createHash, generateKeyPairSync, randomBytes, sign } from 'node:crypto';
import { encodeCBOR, type CBORType } from '@levischuck/tiny-cbor';

/**
 * A WebAuthn authenticator in software, for the tests of passkeys and security
 * keys: one P-256 credential (ES256), a sign counter, no attestation ("none").
 * It answers what navigator.credentials.create() and .get() would, serialized
 * as auth-js sends them (base64url fields, `clientExtensionResults`).
 */

const sha256 = (data: Uint8Array | string) => createHash('sha256').update(data).digest();
export const base64url = (data: Uint8Array | ArrayBuffer) =>
  Buffer.from(data instanceof ArrayBuffer ? new Uint8Array(data) : data).toString('base64url');

export interface CeremonyOverrides {
  rpId?: string;
  origin?: string;
}

export class SoftwareAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly keys = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  counter = 0;
  /** The user handle a registration named, returned by later assertions (passkeys need it). */
  userHandle: string | undefined;

  constructor(
    private readonly defaults: { rpId: string; origin: string },
    private readonly attachment: 'platform' | 'cross-platform',
  ) {}

  get id(): string {
    return base64url(this.credentialId);
  }

  private cosePublicKey(): Uint8Array {
    const jwk = this.keys.publicKey.export({ format: 'jwk' });
    return encodeCBOR(
      new Map<number, CBORType>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
        [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
      ]),
    );
  }

  private authenticatorData(rpId: string, counter: number, attested: boolean): Buffer {
    const flags = 0x01 | 0x04 | (attested ? 0x40 : 0); // user present, verified, attested data
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    const parts = [sha256(rpId), Buffer.from([flags]), count];
    if (attested) {
      const idLength = Buffer.alloc(2);
      idLength.writeUInt16BE(this.credentialId.length);
      parts.push(Buffer.alloc(16), idLength, this.credentialId, Buffer.from(this.cosePublicKey()));
    }
    return Buffer.concat(parts);
  }

  private clientData(type: string, challenge: string, origin: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  /** navigator.credentials.create() for a base64url challenge. */
  register(
    challenge: string,
    { rpId = this.defaults.rpId, origin = this.defaults.origin }: CeremonyOverrides = {},
  ) {
    const attestationObject = encodeCBOR(
      new Map<string, CBORType>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, CBORType>()],
        ['authData', new Uint8Array(this.authenticatorData(rpId, this.counter, true))],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(this.clientData('webauthn.create', challenge, origin)),
        attestationObject: base64url(attestationObject),
        transports: [this.attachment === 'platform' ? 'internal' : 'usb'],
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.attachment,
    };
  }

  /** navigator.credentials.get() for a base64url challenge: signs with the next counter value unless told otherwise. */
  assert(
    challenge: string,
    {
      rpId = this.defaults.rpId,
      origin = this.defaults.origin,
      counter,
    }: CeremonyOverrides & { counter?: number } = {},
  ) {
    this.counter = counter ?? this.counter + 1;
    const authData = this.authenticatorData(rpId, this.counter, false);
    const clientData = this.clientData('webauthn.get', challenge, origin);
    const signature = sign(
      'sha256',
      Buffer.concat([authData, sha256(clientData)]),
      this.keys.privateKey,
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      response: {
        clientDataJSON: base64url(clientData),
        authenticatorData: base64url(authData),
        signature: base64url(signature),
        ...(this.userHandle === undefined ? {} : { userHandle: this.userHandle }),
      },
      clientExtensionResults: {},
      authenticatorAttachment: this.attachment,
    };
  }
}
