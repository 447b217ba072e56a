import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeReplicate, startFakeReplicate } from "../../../test/fake-replicate";
import { multipart } from "../../../test/images";
import { fundedAccount } from "../../../test/key-fixtures";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { featureRequests } from "../../db/schema";
import { cachedBalance } from "../../modules/ledger/ledger.service";
import { RESULT_FOREIGN_HOST, RESULT_NOT_AN_IMAGE, RESULT_TOO_LARGE } from "./upstream";

/**
 * What a hostile or broken upstream answer can do to a call, over HTTP: point our server at an
 * address of its choosing (an internal service, a metadata endpoint), hand it a page or a script
 * instead of an image, or a result far larger than any image. Each call fails, is refunded, and
 * stores nothing.
 */

describe("upstream answers the gateway does not trust", () => {
  let fake: FakeReplicate;
  let internal: LocalServer;
  let testApp: TestApp;
  let organizationId: string;
  let apiKey: string;
  const db = () => testApp.database.db;

  beforeAll(async () => {
    fake = await startFakeReplicate();
    internal = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end("secret");
    });
    testApp = await createTestApp({ REPLICATE_API_TOKEN: fake.token, REPLICATE_API_URL: fake.apiUrl });
    const account = await fundedAccount(testApp, 10_000_000n);
    organizationId = account.organizationId;
    apiKey = (await account.createKey()).content;
  });
  afterAll(async () => {
    await testApp?.close();
    await internal?.close();
    await fake?.close();
  });
  beforeEach(() => fake.behaviour.clear());

  async function generate() {
    const before = await cachedBalance(db(), organizationId);
    const body = multipart([{ name: "prompt", value: "anything" }]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/generation",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
      payload: body.payload,
    });
    return { response, before };
  }

  async function expectRefundedFailure(message: string) {
    const { response, before } = await generate();
    expect(response.statusCode, response.body).toBe(502);
    expect(response.json().message).toContain(message);
    expect(await cachedBalance(db(), organizationId)).toBe(before);
    const rows = await db()
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, organizationId));
    expect(rows.every((row) => row.responseFile === null)).toBe(true);
  }

  it("never fetches a result from a host the platform does not own", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { outputUrl: `${internal.url}/latest/meta-data` });
    await expectRefundedFailure(RESULT_FOREIGN_HOST);
    expect(internal.requests).toHaveLength(0);
  });

  it("refuses a result that is not an image", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", {
      outputFile: { data: Buffer.from("<html><script>alert(1)</script></html>"), type: "image/png" },
    });
    await expectRefundedFailure(RESULT_NOT_AN_IMAGE);
  });

  it("stops reading a result larger than any image", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", {
      outputFile: { data: Buffer.alloc(65 * 1024 * 1024), type: "image/png" },
    });
    await expectRefundedFailure(RESULT_TOO_LARGE);
  });
});
