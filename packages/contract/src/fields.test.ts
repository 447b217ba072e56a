import { describe, expect, it } from "vitest";
import { registerPasskeyRequest } from "./calls/account-security";
import { featureById } from "./catalog";
import { hasControlCharacters } from "./fields";
import { CONTROL_CHARACTERS_REFUSED } from "./messages";

describe("names without control characters", () => {
  it("finds line breaks, tabs, other controls and bidirectional formatting characters", () => {
    for (const text of ["a\nb", "a\rb", "a\tb", "a\u0000b", "a\u007fb", "a\u0085b", "a\u2028b", "a\u2029b"]) {
      expect(hasControlCharacters(text), JSON.stringify(text)).toBe(true);
    }
    for (const text of ["a\u200eb", "a\u200fb", "a\u061cb", "a\u202ab", "a\u202eb", "a\u2066b", "a\u2069b"]) {
      expect(hasControlCharacters(text), JSON.stringify(text)).toBe(true);
    }
  });

  it("lets names in any script, with punctuation, quotes and emoji through", () => {
    for (const text of [
      'Acme "Labs", Inc.',
      "Zoë Łukasz-Brontë",
      "株式会社プリズム",
      "שלום עולם",
      "Café ☕ 🚀",
    ]) {
      expect(hasControlCharacters(text), text).toBe(false);
    }
  });

  it("applies to the names defined outside the common fields: passkeys and AI Clones", () => {
    const passkey = registerPasskeyRequest.safeParse({ name: "Laptop\u202Egnp", response: {} });
    expect(passkey.error?.issues[0]?.message).toBe(CONTROL_CHARACTERS_REFUSED);
    const training = featureById("pegasus-training");
    const clone = training?.bodySchema.safeParse({ description: "Clone\nNOTICE" });
    expect(clone?.error?.issues[0]?.message).toBe(CONTROL_CHARACTERS_REFUSED);
  });
});
