import { randomBytes } from "node:crypto";
import argon2 from "argon2";

/**
 * argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane): strong against GPU guessing
 * while keeping a sign-in under ~50 ms on a small server.
 */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, ARGON2_OPTIONS);
}

export async function verifyPassword(hash: string, password: string): Promise<boolean> {
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false;
  }
}

/** How the server hashes and checks passwords; a dependency so tests can observe the work done. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

export const argon2Passwords: PasswordHasher = { hash: hashPassword, verify: verifyPassword };

let dummyHash: Promise<string> | undefined;

/**
 * Checks `password` against `hash`, or, when there is no hash to check (an unknown email, an account
 * that signs in only with Google or GitHub), against a throwaway hash of the same cost, so the answer
 * takes as long either way and its timing does not tell which accounts exist. Always false then.
 */
export async function verifyPasswordOrDummy(
  passwords: PasswordHasher,
  hash: string | null | undefined,
  password: string,
): Promise<boolean> {
  if (hash) return passwords.verify(hash, password);
  dummyHash ??= hashPassword(randomBytes(16).toString("hex"));
  await passwords.verify(await dummyHash, password);
  return false;
}
