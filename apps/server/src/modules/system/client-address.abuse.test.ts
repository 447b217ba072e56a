import { ipNotAllowedText } from "@prism/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { uniqueEmail } from "../../../test/accounts";
import { type AppendingProxy, postFrom, startAppendingProxy } from "../../../test/appending-proxy";
import { multipart } from "../../../test/images";
import {
  fundedAccount,
  imageModelEnv,
  limitsWith,
  startImageModelServer,
  TINY_PNG,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { auditLog } from "../../db/schema";
import { SESSION_COOKIE } from "../auth/session-cookie";

/**
 * A client choosing its own IP address, attacked through a real reverse proxy: its own process on
 * loopback that appends the address of whoever connects to X-Forwarded-For, as nginx's
 * `$proxy_add_x_forwarded_for` and cloud load balancers do. The proxy connects to the server from
 * 127.0.0.2 and the client to the proxy from 127.0.0.3, so three parties have three addresses. The
 * client writes an X-Forwarded-For of its own; the server must take the address the proxy appended.
 */

const PROXY_ADDRESS = "127.0.0.2";
const CLIENT_ADDRESS = "127.0.0.3";
const CHOSEN_ADDRESS = "203.0.113.7";

describe.each([
  { trusted: "the proxy's address", TRUST_PROXY: PROXY_ADDRESS },
  { trusted: "a CIDR range", TRUST_PROXY: "127.0.0.2/32" },
  { trusted: "one hop", TRUST_PROXY: "1" },
])("the client address behind an appending proxy, trusting $trusted", ({ TRUST_PROXY }) => {
  let model: LocalServer;
  let testApp: TestApp;
  let proxy: AppendingProxy;

  beforeAll(async () => {
    model = await startImageModelServer();
    testApp = await createTestApp({ ...imageModelEnv(model), TRUST_PROXY });
    const origin = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    proxy = await startAppendingProxy(origin, PROXY_ADDRESS);
  });

  afterAll(async () => {
    await proxy?.stop();
    await testApp?.close();
    await model?.close();
  });

  const removeBackgroundThroughProxy = (apiKey: string, forwardedFor: string) => {
    const body = multipart([{ name: "image", value: TINY_PNG, filename: "p.png", contentType: "image/png" }]);
    return postFrom(CLIENT_ADDRESS, `${proxy.url}/v1/images/background-removal`, body.payload, {
      authorization: `Bearer ${apiKey}`,
      "content-type": body.contentType,
      "x-forwarded-for": forwardedFor,
    });
  };

  it("checks a key's IP allowlist against the address the proxy saw, not the one the client wrote", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const elsewhere = await account.createKey(limitsWith({ allowedIps: [CHOSEN_ADDRESS] }));
    const refused = await removeBackgroundThroughProxy(elsewhere.content, CHOSEN_ADDRESS);
    expect(refused.status, refused.text).toBe(403);
    expect(refused.json()).toMatchObject({
      error: "ip-not-allowed",
      message: ipNotAllowedText(CLIENT_ADDRESS),
    });

    const here = await account.createKey(limitsWith({ allowedIps: [CLIENT_ADDRESS] }));
    const through = await removeBackgroundThroughProxy(here.content, CHOSEN_ADDRESS);
    expect(through.status, through.text).toBe(200);
    const rows = await account.requestRows();
    expect(rows.map((row) => row.clientIp)).toEqual([CLIENT_ADDRESS]);
  });

  it("throttles sign-ins by the real address however many addresses the client makes up", async () => {
    const statuses: number[] = [];
    for (let attempt = 0; attempt < 70; attempt += 1) {
      const answer = await postFrom(
        CLIENT_ADDRESS,
        `${proxy.url}/v1/users/login`,
        JSON.stringify({ email: uniqueEmail("spray"), password: "Wrong-passw0rd!" }),
        { "content-type": "application/json", "x-forwarded-for": `198.51.100.${attempt + 1}` },
      );
      statuses.push(answer.status);
    }
    // The per-address limit is 60 sign-ins in 10 minutes: the rest are refused.
    expect(statuses.slice(0, 60).every((status) => status === 400)).toBe(true);
    expect(statuses.slice(60)).toEqual(Array(10).fill(429));
  });

  it("writes the real address into the audit log", async () => {
    const account = await fundedAccount(testApp, 0n);
    const renamed = await postFrom(
      CLIENT_ADDRESS,
      `${proxy.url}/v1/users/organizations/update-name`,
      JSON.stringify({ organizationId: account.organizationId, name: "Renamed through the proxy" }),
      {
        "content-type": "application/json",
        origin: proxy.url,
        cookie: `${SESSION_COOKIE}=${account.owner.session}`,
        "x-forwarded-for": CHOSEN_ADDRESS,
      },
    );
    expect(renamed.status, renamed.text).toBe(200);
    const [entry] = await testApp.database.db
      .select()
      .from(auditLog)
      .where(
        and(eq(auditLog.organizationId, account.organizationId), eq(auditLog.action, "organization.renamed")),
      );
    expect(entry?.ip).toBe(CLIENT_ADDRESS);
  });
});
