import { createHash, randomInt } from "node:crypto";
import { crc32 } from "node:zlib";
import { API_KEY_PREFIX } from "@prism/contract";

/**
 * GitHub's token scheme: a recognisable prefix (secret scanners can find leaked keys), 32 random
 * base62 characters (~190 bits), and a 6-character base62 CRC32 of them, so a mistyped key is
 * refused without a database hit.
 */
const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
const RANDOM_LENGTH = 32;
const CHECKSUM_LENGTH = 6;
const API_KEY_PATTERN = new RegExp(`^${API_KEY_PREFIX}[0-9A-Za-z]{${RANDOM_LENGTH + CHECKSUM_LENGTH}}$`);

function toBase62(value: number, width: number): string {
  let text = "";
  let rest = value;
  while (rest > 0) {
    text = BASE62[rest % 62] + text;
    rest = Math.floor(rest / 62);
  }
  return text.padStart(width, "0");
}

function checksumOf(random: string): string {
  return toBase62(crc32(random), CHECKSUM_LENGTH);
}

export function generateApiKey(): string {
  let random = "";
  for (let index = 0; index < RANDOM_LENGTH; index += 1) random += BASE62[randomInt(62)];
  return `${API_KEY_PREFIX}${random}${checksumOf(random)}`;
}

/** Shape and checksum only; says nothing about whether the key exists. */
export function isWellFormedApiKey(key: string): boolean {
  if (!API_KEY_PATTERN.test(key)) return false;
  const body = key.slice(API_KEY_PREFIX.length);
  return checksumOf(body.slice(0, RANDOM_LENGTH)) === body.slice(RANDOM_LENGTH);
}

/** A plain SHA-256 is enough at rest: the key carries far more entropy than any password. */
export function hashApiKey(key: string): string {
  return createHash("sha256").update(key).digest("hex");
}
