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
