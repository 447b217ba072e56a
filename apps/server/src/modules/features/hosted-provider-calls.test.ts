import { IDENTITY_REQUEST_HEADER } from "@prism/contract";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { type FakeReplicate, startFakeReplicate } from "../../../test/fake-replicate";
import { multipart } from "../../../test/images";
import { fundedAccount } from "../../../test/key-fixtures";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { startTraining } from "../../../test/training";
import { featureRequests, jobs, ledgerEntries, organizations } from "../../db/schema";
import { DEFAULT_REPLICATE_MODELS } from "../../providers/inference/model-map";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * Feature calls on Replicate through the public API, with the official client talking to a local fake
 * Replicate: what the caller is charged, what the request row keeps, and what happens to the money
 * when Replicate refuses the input or the call runs out of time.
 */

const CATALOGUE = Object.values(DEFAULT_REPLICATE_MODELS).flatMap((entry) =>
  entry?.model.includes(":") ? [entry.model] : [],
);
const GENERATION_PRICE_MICROS = 20_000n;

describe("feature calls on Replicate", () => {
  let fake: FakeReplicate;
  let testApp: TestApp;
  let organizationId: string;
  let apiKey: string;
  const db = () => testApp.database.db;

  beforeAll(async () => {
    fake = await startFakeReplicate({ catalogue: CATALOGUE });
    testApp = await createTestApp({
      REPLICATE_API_TOKEN: fake.token,
      REPLICATE_API_URL: fake.apiUrl,
      PROVIDER_TIMEOUT_MS: "2000",
    });
    const account = await fundedAccount(testApp, 20_000_000n);
    organizationId = account.organizationId;
    apiKey = (await account.createKey()).content;
    await db().update(organizations).set({ isNew: false }).where(eq(organizations.id, organizationId));
  });
  afterAll(async () => {
    await testApp?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.behaviour.clear();
  });

  function generate(prompt: string) {
    const body = multipart([
      { name: "prompt", value: prompt },
      { name: "width", value: "1024" },
      { name: "height", value: "1024" },
    ]);
    return testApp.app.inject({
      method: "POST",
      url: "/v1/images/generation",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
      payload: body.payload,
    });
  }

  async function entriesOf(requestId: string) {
    return db().select().from(ledgerEntries).where(eq(ledgerEntries.requestId, requestId));
  }

  it("charges the call and keeps Replicate's cost and compute time on the request row only", async () => {
    const before = await cachedBalance(db(), organizationId);
    const response = await generate("a red kite");
    expect(response.statusCode, response.body).toBe(200);
    const answer = response.json() as { request: { id: string } };
    expect(response.body).not.toContain("upstream");
    expect(await cachedBalance(db(), organizationId)).toBe(before - GENERATION_PRICE_MICROS);
    const [row] = await db().select().from(featureRequests).where(eq(featureRequests.id, answer.request.id));
    expect(row).toMatchObject({ status: "done", provider: "replicate", upstreamCostMicros: 25_000n });
    expect(row?.upstreamComputeMs).toBeGreaterThanOrEqual(0);
    expect(row?.responseFile).toBeTruthy();

    // The operator sees the margin per feature: what Replicate cost against what was billed.
    const metrics = await testApp.app.inject({ method: "GET", url: "/metrics" });
    expect(metrics.body).toContain(
      'prism_upstream_cost_dollars_total{feature="image-generation",provider="replicate"} 0.025',
    );
    expect(metrics.body).toContain(
      'prism_upstream_billed_dollars_total{feature="image-generation",provider="replicate"} 0.02',
    );
  });

  it("answers 422 with Replicate's reason and refunds when Replicate refuses the input", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { required: ["guidance"] });
    const before = await cachedBalance(db(), organizationId);
    const response = await generate("refused");
    expect(response.statusCode, response.body).toBe(422);
    expect(response.json()).toMatchObject({
      error: "unprocessable-input",
      message: "- input.guidance: guidance is required",
    });
    expect(await cachedBalance(db(), organizationId)).toBe(before);
    const [row] = await db()
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.organizationId, organizationId), eq(featureRequests.status, "error")));
    expect(row?.errorMessage).toBe("- input.guidance: guidance is required");
    const kinds = (await entriesOf(row!.id)).map((entry) => entry.kind).sort();
    expect(kinds).toEqual(["refund", "reservation"]);
  });

  it("stops the prediction upstream and refunds once when the call times out", async () => {
    fake.behaviour.set("black-forest-labs/flux-dev", { durationMs: 60_000 });
    const before = await cachedBalance(db(), organizationId);
    const response = await generate("forever");
    expect(response.statusCode, response.body).toBe(504);
    expect(await cachedBalance(db(), organizationId)).toBe(before);
    const job = () => [...fake.jobs.values()].find((entry) => entry.input.prompt === "forever");
    await expect.poll(() => job()?.status, { timeout: 15_000 }).toBe("canceled");
    expect(fake.log).toContain(`cancel ${job()!.id}`);
    const rows = await db()
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.organizationId, organizationId), eq(featureRequests.status, "error")));
    const timedOut = rows.find((row) => (row.requestBody as { prompt?: string }).prompt === "forever");
    const kinds = (await entriesOf(timedOut!.id)).map((entry) => entry.kind).sort();
    expect(kinds).toEqual(["refund", "reservation"]);
  });

  it("trains an AI Clone on Replicate, follows it to ready and generates with it", async () => {
    const started = await startTraining(testApp, apiKey, "Replicate clone");
    const identityId = started.request.response_data.body.identityId;
    expect(fake.jobs.get(identityId)?.kind).toBe("training");

    await expect
      .poll(async () => {
        await db()
          .update(jobs)
          .set({ runAt: new Date(0) })
          .where(eq(jobs.kind, "training-poll"));
        await testApp.app.jobWorker.drain();
        const [row] = await db()
          .select()
          .from(featureRequests)
          .where(eq(featureRequests.id, started.request.id));
        return (row?.responseBody as { status?: string } | null)?.status;
      })
      .toBe("ready");

    const body = multipart([
      { name: "prompt", value: "in a forest" },
      { name: "width", value: "1024" },
      { name: "height", value: "1024" },
      { name: "identity_id", value: identityId },
    ]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/pegasus-generation",
      headers: {
        authorization: `Bearer ${apiKey}`,
        "content-type": body.contentType,
        [IDENTITY_REQUEST_HEADER]: started.request.id,
      },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    const trained = (fake.jobs.get(identityId)!.output as { version: string }).version.split(":")[1];
    const run = [...fake.jobs.values()].find((entry) => entry.input.prompt === "a photo of TOK, in a forest");
    expect(run?.version).toBe(trained);
  });
});
