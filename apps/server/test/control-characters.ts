import { CONTROL_CHARACTERS_REFUSED } from "@prism/contract";
import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";

/**
 * Names an attacker would choose: line breaks that write lines of their own into a mail sent to a
 * stranger, tabs, and the bidirectional controls that make text show other than what it holds.
 */
export const CONTROL_CHARACTER_NAMES = {
  newline: "Acme\nNOTICE: your card was declined. Re-verify: https://evil.example/verify",
  "carriage return": "Acme\r\nBcc: victim@example.com",
  tab: "Acme\tCorp",
  "right-to-left override": "Invoice\u202Efdp.exe",
  "bidirectional isolate": "Acme\u2067evil\u2069",
  "line separator": "Acme\u2028NOTICE",
  NUL: "Acme\u0000",
} as const;

/** The contract's clear 400 for a field holding control characters. */
export function expectControlCharactersRefused(response: LightMyRequestResponse): void {
  expect(response.statusCode, response.body).toBe(400);
  expect(response.json().error).toBe("invalid-input");
  expect(response.json().message).toContain(CONTROL_CHARACTERS_REFUSED);
}
