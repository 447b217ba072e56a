import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { signWebhook, verifyWebhook, WebhookVerificationError } from "./index.js";

/** A Standard Webhooks secret as the server makes one: `whsec_` and 24 random bytes in base64. */
function newSecret(): string {
  return `whsec_${Buffer.from(crypto.getRandomValues(new Uint8Array(24))).toString("base64")}`;
}

function signed(secret: string, body: string, at = new Date(), id = `msg_${crypto.randomUUID()}`) {
  return {
    "webhook-id": id,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(id, at, body),
  };
}

describe("webhook verification (Standard Webhooks with WebCrypto)", () => {
  it("accepts what the standardwebhooks package signs, and signs as it does", async () => {
    for (let round = 0; round < 20; round++) {
      const secret = newSecret();
      const body = JSON.stringify({
        type: "request.completed",
        data: { id: crypto.randomUUID(), round, text: "é ✓" },
      });
      const headers = signed(secret, body);
      expect(await verifyWebhook(body, headers, secret)).toEqual(JSON.parse(body));
      expect(await verifyWebhook(new TextEncoder().encode(body), new Headers(headers), secret)).toEqual(
        JSON.parse(body),
      );
      const at = new Date(Number(headers["webhook-timestamp"]) * 1000);
      expect(await signWebhook(secret, headers["webhook-id"], at, body)).toBe(headers["webhook-signature"]);
    }
  });

  it("accepts a delivery carrying several signatures when one matches (secret rotation)", async () => {
    const secret = newSecret();
    const body = '{"type":"webhook.test"}';
    const headers = signed(secret, body);
    const old = signed(newSecret(), body, new Date(), headers["webhook-id"]);
    headers["webhook-signature"] = `${old["webhook-signature"]} ${headers["webhook-signature"]}`;
    await expect(verifyWebhook(body, headers, secret)).resolves.toEqual({ type: "webhook.test" });
  });

  it("refuses a changed body, another secret, a changed id, and missing headers", async () => {
    const secret = newSecret();
    const body = '{"amount":1}';
    const headers = signed(secret, body);
    await expect(verifyWebhook('{"amount":2}', headers, secret)).rejects.toThrow(WebhookVerificationError);
    await expect(verifyWebhook(body, headers, newSecret())).rejects.toThrow(/signature/);
    await expect(verifyWebhook(body, { ...headers, "webhook-id": "msg_other" }, secret)).rejects.toThrow(
      /signature/,
    );
    await expect(verifyWebhook(body, { "webhook-id": headers["webhook-id"] }, secret)).rejects.toThrow(
      /header/,
    );
    // The library agrees on every one of them.
    expect(() => new Webhook(secret).verify('{"amount":2}', headers)).toThrow();
  });

  it("refuses a timestamp outside the tolerance either way, as the library does", async () => {
    const secret = newSecret();
    const body = "{}";
    const old = signed(secret, body, new Date(Date.now() - 301_000));
    const future = signed(secret, body, new Date(Date.now() + 301_000));
    await expect(verifyWebhook(body, old, secret)).rejects.toThrow(/too old/);
    await expect(verifyWebhook(body, future, secret)).rejects.toThrow(/future/);
    expect(() => new Webhook(secret).verify(body, old)).toThrow();
    expect(() => new Webhook(secret).verify(body, future)).toThrow();
    // Within a wider tolerance, or checked against the time it was sent, the old one is fine.
    await expect(verifyWebhook(body, old, secret, { toleranceSeconds: 600 })).resolves.toEqual({});
    await expect(
      verifyWebhook(body, old, secret, { now: new Date(Number(old["webhook-timestamp"]) * 1000) }),
    ).resolves.toEqual({});
  });
});
