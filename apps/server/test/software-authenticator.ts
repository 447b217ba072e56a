import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

type CborValue = number | string | Uint8Array | Map<CborValue, CborValue>;

/** The few CBOR shapes WebAuthn needs (RFC 8949): integers, byte and text strings, maps. */
function cbor(value: CborValue): Buffer {
  const head = (major: number, length: number): Buffer => {
    if (length < 24) return Buffer.from([(major << 5) | length]);
    if (length < 0x100) return Buffer.from([(major << 5) | 24, length]);
    const buffer = Buffer.alloc(3);
    buffer.writeUInt8((major << 5) | 25);
    buffer.writeUInt16BE(length, 1);
    return buffer;
  };
  if (typeof value === "number") return value >= 0 ? head(0, value) : head(1, -1 - value);
  if (typeof value === "string") {
    const bytes = Buffer.from(value, "utf8");
    return Buffer.concat([head(3, bytes.length), bytes]);
  }
  if (value instanceof Uint8Array) return Buffer.concat([head(2, value.length), value]);
  return Buffer.concat([
    head(5, value.size),
    ...[...value].flatMap(([key, entry]) => [cbor(key), cbor(entry)]),
  ]);
}

const sha256 = (data: Buffer | string) => createHash("sha256").update(data).digest();
const base64url = (data: Buffer) => data.toString("base64url");

const FLAG_USER_PRESENT = 0x01;
const FLAG_USER_VERIFIED = 0x04;
const FLAG_ATTESTED_CREDENTIAL = 0x40;

/**
 * A platform authenticator in software, as Chromium's virtual authenticator is in the e2e journeys: a
 * real P-256 key, real signatures over real authenticator data, for the server's real verification.
 * `userVerified` says whether the device checked its user (PIN, biometrics) for this ceremony.
 */
export class SoftwareAuthenticator {
  private readonly keys = generateKeyPairSync("ec", { namedCurve: "P-256" });
  readonly credentialId = randomBytes(16);
  private counter = 0;

  constructor(
    private readonly rpId: string,
    private readonly origin: string,
  ) {}

  private authenticatorData(flags: number, attested?: Buffer): Buffer {
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    return Buffer.concat([sha256(this.rpId), Buffer.from([flags]), counter, ...(attested ? [attested] : [])]);
  }

  private clientData(type: "webauthn.create" | "webauthn.get", challenge: string): Buffer {
    return Buffer.from(JSON.stringify({ type, challenge, origin: this.origin, crossOrigin: false }));
  }

  /** The answer to `navigator.credentials.create` with these options (attestation "none"). */
  register(options: { challenge: string }, { userVerified }: { userVerified: boolean }) {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    const coseKey = cbor(
      new Map<CborValue, CborValue>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x ?? "", "base64url")],
        [-3, Buffer.from(jwk.y ?? "", "base64url")],
      ]),
    );
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, this.credentialId, coseKey]);
    const flags = FLAG_USER_PRESENT | FLAG_ATTESTED_CREDENTIAL | (userVerified ? FLAG_USER_VERIFIED : 0);
    const attestationObject = cbor(
      new Map<CborValue, CborValue>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", this.authenticatorData(flags, attested)],
      ]),
    );
    return {
      id: base64url(this.credentialId),
      rawId: base64url(this.credentialId),
      type: "public-key",
      response: {
        clientDataJSON: base64url(this.clientData("webauthn.create", options.challenge)),
        attestationObject: base64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** The answer to `navigator.credentials.get` with these options, signed by the key. */
  authenticate(options: { challenge: string }, { userVerified }: { userVerified: boolean }) {
    this.counter += 1;
    const authenticatorData = this.authenticatorData(
      FLAG_USER_PRESENT | (userVerified ? FLAG_USER_VERIFIED : 0),
    );
    const clientDataJSON = this.clientData("webauthn.get", options.challenge);
    const signature = sign(
      "sha256",
      Buffer.concat([authenticatorData, sha256(clientDataJSON)]),
      this.keys.privateKey,
    );
    return {
      id: base64url(this.credentialId),
      rawId: base64url(this.credentialId),
      type: "public-key",
      response: {
        clientDataJSON: base64url(clientDataJSON),
        authenticatorData: base64url(authenticatorData),
        signature: base64url(signature),
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
