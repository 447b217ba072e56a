import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/**
 * Authenticator secrets at rest: AES-256-GCM under a key derived (HKDF-SHA256) from APP_SECRET, stored
 * as `v1:<iv>:<tag>:<ciphertext>` (base64url) in the same text column. The user's id is the additional
 * authenticated data, so a sealed secret copied into another user's row does not open there.
 *
 * Rows written before encryption hold the base32 secret itself; they still open (as plaintext) and the
 * service seals them again the next time one of their codes is accepted.
 */
export interface TotpSecretBox {
  seal(userId: string, secret: string): string;
  /** The secret, or undefined when the stored value was altered or sealed under another APP_SECRET. */
  open(userId: string, stored: string): string | undefined;
  /** Whether `stored` is a secret from before encryption, to be sealed again. */
  isPlaintext(stored: string): boolean;
}

const VERSION = "v1";
const ALGORITHM = "aes-256-gcm";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** The HKDF label: the key derived for this purpose opens nothing else made from APP_SECRET. */
const KEY_INFO = "prism/totp-secret/v1";
/** What an authenticator secret from before encryption looks like (RFC 4648 base32). */
const PLAINTEXT_SECRET = /^[A-Z2-7]+=*$/;

export function createTotpSecretBox(appSecret: string): TotpSecretBox {
  const key = Buffer.from(hkdfSync("sha256", appSecret, "", KEY_INFO, 32));

  return {
    seal(userId, secret) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv(ALGORITHM, key, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(userId, "utf8"));
      const ciphertext = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
      const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString("base64url"));
      return [VERSION, ...parts].join(":");
    },

    open(userId, stored) {
      if (PLAINTEXT_SECRET.test(stored)) return stored;
      const [version, iv, tag, ciphertext, ...rest] = stored.split(":");
      if (version !== VERSION || iv === undefined || tag === undefined || ciphertext === undefined) {
        return undefined;
      }
      if (rest.length > 0) return undefined;
      const ivBytes = Buffer.from(iv, "base64url");
      const tagBytes = Buffer.from(tag, "base64url");
      if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES) return undefined;
      try {
        const decipher = createDecipheriv(ALGORITHM, key, ivBytes, { authTagLength: TAG_BYTES });
        decipher.setAAD(Buffer.from(userId, "utf8"));
        decipher.setAuthTag(tagBytes);
        return Buffer.concat([
          decipher.update(Buffer.from(ciphertext, "base64url")),
          decipher.final(),
        ]).toString("utf8");
      } catch {
        // GCM refuses a ciphertext, tag, IV or user id that was changed, and a key that is not ours.
        return undefined;
      }
    },

    isPlaintext(stored) {
      return PLAINTEXT_SECRET.test(stored);
    },
  };
}
