import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, uniqueEmail } from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";

const MAILBOX_URLS = ["/dev/mailbox", "/dev/mailbox.html"];

describe("dev mailbox", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    // Behind a proxy whose headers are trusted: a forged X-Forwarded-For must still not count.
    testApp = await createTestApp({ APP_ENV: "development", TRUST_PROXY: "true" });
    await post(testApp, "/v1/users/create", {
      firstName: "Mail",
      lastName: "Box",
      email: uniqueEmail("mailbox"),
      password: "Sup3r-secret!",
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("answers a request from another machine with 404, whatever it claims to forward for", async () => {
    for (const url of MAILBOX_URLS) {
      const remote = await testApp.app.inject({ method: "GET", url, remoteAddress: "203.0.113.50" });
      expect(remote.statusCode, url).toBe(404);
      expect(remote.body, url).not.toContain("verification code");
      const forged = await testApp.app.inject({
        method: "GET",
        url,
        remoteAddress: "203.0.113.50",
        headers: { "x-forwarded-for": "127.0.0.1" },
      });
      expect(forged.statusCode, url).toBe(404);
    }
  });

  it("serves the loopback interface, over IPv4 and IPv6", async () => {
    for (const remoteAddress of ["127.0.0.1", "::1", "::ffff:127.0.0.1"]) {
      const local = await testApp.app.inject({ method: "GET", url: "/dev/mailbox", remoteAddress });
      expect(local.statusCode, remoteAddress).toBe(200);
      expect(local.json()[0].text).toContain("verification code");
    }
  });
});
