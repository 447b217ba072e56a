import { writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { usdToMicros } from "@prism/contract";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { makePng, makeWav, multipart } from "../../../test/images";
import type { LocalServer } from "../../../test/local-http-server";
import { STUB_MODEL_SERVER_FEATURES, startStubModelServer } from "../../../test/model-server-stub";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { ledgerEntries } from "../../db/schema";
import { credit } from "../ledger/ledger.service";

/**
 * Every feature answer carries the call's `cost` next to the balance, and every history row carries
 * it too: both equal, to the micro-dollar, what the ledger took for the call. Prices with odd
 * micro-dollars (not representable as short binary fractions) make the exactness matter.
 */
describe("the cost of every call", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let organizationId: string;
  let projectId: string;
  let session: string;
  let apiKey: string;

  /** What the ledger took for one request: the opposite of its entries' sum. */
  const ledgerDebit = async (requestId: string): Promise<bigint> => {
    const [row] = await testApp.database.db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.requestId, requestId));
    return -BigInt(row?.total ?? 0);
  };

  const call = (endpoint: string, parts: Parameters<typeof multipart>[0]) => {
    const body = multipart(parts);
    return testApp.app.inject({
      method: "POST",
      url: endpoint,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
      payload: body.payload,
    });
  };

  beforeAll(async () => {
    modelServer = await startStubModelServer();
    const pricesFile = join(tmpdir(), `prism-prices-${process.pid}-${Date.now()}.json`);
    writeFileSync(
      pricesFile,
      JSON.stringify({
        "image-background-removal": { price: 0.012345 },
        "speech-to-text": { price: 0.007777 },
        "image-upscaling": { price: 0.1 },
      }),
    );
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: STUB_MODEL_SERVER_FEATURES,
      PRICES_FILE: pricesFile,
    });
    const owner = await signUpAndConfirm(testApp);
    session = owner.session;
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    apiKey = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "ci" }, { session })
    ).json().apiKey.content;
    await testApp.database.db.transaction((tx) =>
      credit(tx, { organizationId, amountMicros: 10_000_000n, reference: `grant-${organizationId}` }),
    );
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("answers each call's cost exactly as the ledger's debit, and the history rows agree", async () => {
    const png = await makePng(16, 16);
    const removal = await call("/v1/images/background-removal", [
      { name: "image", value: png, filename: "a.png", contentType: "image/png" },
    ]);
    // Three started minutes of audio: the cost is three units at the per-minute price.
    const speech = await call("/v1/speech/transcription", [
      { name: "audio", value: makeWav(150), filename: "a.wav", contentType: "audio/wav" },
    ]);
    for (const response of [removal, speech]) {
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json();
      expect(answer.cost).toBe(answer.request.cost);
      expect(usdToMicros(answer.cost)).toBe(await ledgerDebit(answer.request.id));
    }
    expect(removal.json().cost).toBe(0.012345);
    expect(speech.json().cost).toBe(0.023331);

    for (const [endpoint, answer] of [
      ["/v1/images/background-removal", removal.json()],
      ["/v1/speech/transcription", speech.json()],
    ] as const) {
      const history = await post(
        testApp,
        "/v1/users/playground/get-requests",
        { projectId, endpoint, offset: 0 },
        { session },
      );
      expect(history.statusCode, history.body).toBe(200);
      const row = history.json().requests.find((item: { id: string }) => item.id === answer.request.id);
      expect(row.cost).toBe(answer.cost);
    }
  });

  it("shows a failed, refunded call at cost 0, as the ledger has it", async () => {
    const failed = await call("/v1/images/upscaling", [
      { name: "image", value: await makePng(16, 16), filename: "a.png", contentType: "image/png" },
      { name: "scale", value: "2" },
    ]);
    expect(failed.statusCode, failed.body).toBe(502);
    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { projectId, endpoint: "/v1/images/upscaling", offset: 0 },
      { session },
    );
    const [row] = history.json().requests;
    expect(row).toMatchObject({ status: "error", cost: 0 });
    expect(await ledgerDebit(row.id)).toBe(0n);
  });
});
