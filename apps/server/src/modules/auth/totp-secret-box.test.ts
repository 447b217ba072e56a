import { generateSecret } from "otplib";
import { describe, expect, it } from "vitest";
import { createTotpSecretBox } from "./totp-secret-box";

const APP_SECRET = "a-test-app-secret-of-at-least-32-characters";
const USER = "6f1c2b9e-3f51-4c1a-9d43-1c7a6d2f0b11";
const OTHER_USER = "0b7e5a3d-8a2c-4e0f-b6f4-2d9c1e7a5f33";

/** `stored` with one base64url character of the part at `index` changed. */
function tampered(stored: string, index: number): string {
  const parts = stored.split(":");
  const part = parts[index] ?? "";
  parts[index] = `${part[0] === "A" ? "B" : "A"}${part.slice(1)}`;
  return parts.join(":");
}

describe("authenticator secrets at rest", () => {
  const box = createTotpSecretBox(APP_SECRET);

  it("stores a versioned AES-GCM envelope that is not the secret, and opens it again", () => {
    const secret = generateSecret();
    const stored = box.seal(USER, secret);
    expect(stored).toMatch(/^v1:[\w-]{16}:[\w-]{22}:[\w-]+$/);
    expect(stored).not.toContain(secret);
    expect(box.isPlaintext(stored)).toBe(false);
    expect(box.open(USER, stored)).toBe(secret);
    // A fresh IV each time: equal secrets do not give equal stored values.
    expect(box.seal(USER, secret)).not.toBe(stored);
    // The key comes from APP_SECRET alone: another process with the same secret opens it.
    expect(createTotpSecretBox(APP_SECRET).open(USER, stored)).toBe(secret);
  });

  it("refuses an altered ciphertext, tag or IV, another user's row and another APP_SECRET", () => {
    const stored = box.seal(USER, generateSecret());
    for (const index of [1, 2, 3]) expect(box.open(USER, tampered(stored, index))).toBeUndefined();
    expect(box.open(USER, `${stored}:extra`)).toBeUndefined();
    expect(box.open(USER, stored.replace(/^v1:/, "v2:"))).toBeUndefined();
    expect(box.open(USER, "v1:not-an-envelope")).toBeUndefined();
    expect(box.open(OTHER_USER, stored)).toBeUndefined();
    expect(createTotpSecretBox(`${APP_SECRET}-rotated`).open(USER, stored)).toBeUndefined();
  });

  it("still opens a base32 secret stored before encryption, and says it is one", () => {
    const secret = generateSecret();
    expect(box.isPlaintext(secret)).toBe(true);
    expect(box.open(USER, secret)).toBe(secret);
  });
});
