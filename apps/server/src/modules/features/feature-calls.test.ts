import { and, desc, eq } from "drizzle-orm";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { reserveForCall } from "../../../test/call-charges";
import { makeLyingPng, makePng, makeWav, multipart } from "../../../test/images";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { featureRequests, jobs, organizations, usageDaily } from "../../db/schema";
import { budgetReached } from "../alerts/alerts.store";
import { reserveCall } from "../ledger/call-ledger.store";
import { cachedBalance, credit, ledgerBalance } from "../ledger/ledger.service";
import { sweepAbandonedRequests } from "./call-failure";

/**
 * A model server speaking our HTTP provider protocol (docs/model-server.md): background removal and
 * extension answer an image, transcription answers JSON, upscaling fails, object removal hangs.
 */
let trainingPolls = 0;
let refuseNextTraining = false;

async function startModelServer(): Promise<LocalServer> {
  return startLocalServer((request, response) => {
    if (request.method === "GET" && request.path === "/health")
      return sendJson(response, 200, { status: "ok" });
    if (
      request.path === "/image-background-removal" ||
      request.path === "/image-extension" ||
      request.path === "/face-swapping"
    ) {
      void sharp({ create: { width: 8, height: 8, channels: 4, background: { r: 0, g: 0, b: 0, alpha: 0 } } })
        .png()
        .toBuffer()
        .then((png) => {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(png);
        });
      return;
    }
    if (request.path === "/speech-to-text") {
      return sendJson(response, 200, {
        language: "en",
        segments: [{ start: 0, end: 1.5, text: "go forward ten meters" }],
      });
    }
    if (request.path === "/image-upscaling") return sendJson(response, 500, { error: "CUDA out of memory" });
    if (request.method === "POST" && request.path === "/pegasus-training" && refuseNextTraining) {
      refuseNextTraining = false;
      return sendJson(response, 422, { message: "No face found in the photos." });
    }
    if (request.method === "POST" && request.path === "/pegasus-training") {
      // The protocol's submit answers at once; training runs on the model server afterwards.
      return sendJson(response, 200, { identityId: "identity-1", status: "pending" });
    }
    if (request.method === "GET" && request.path === "/pegasus-training/identity-1") {
      trainingPolls += 1;
      return sendJson(response, 200, { status: trainingPolls >= 2 ? "ready" : "training" });
    }
    if (request.path === "/object-removal") return; // never answers: the gateway's timeout ends it
    sendJson(response, 404, { error: "unknown feature" });
  });
}

describe("feature calls through the gateway", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
  let organizationId: string;
  let projectId: string;
  let apiKey: string;
  let png: Buffer;

  const callWithKey = (endpoint: string, parts: Parameters<typeof multipart>[0], key = apiKey) => {
    const body = multipart(parts);
    return testApp.app.inject({
      method: "POST",
      url: endpoint,
      headers: { authorization: `Bearer ${key}`, "content-type": body.contentType },
      payload: body.payload,
    });
  };

  const balanceMicros = () => cachedBalance(testApp.database.db, organizationId);

  beforeAll(async () => {
    modelServer = await startModelServer();
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES:
        "image-background-removal,image-extension,speech-to-text,image-upscaling,object-removal,pegasus-training,face-swapping",
      // Long enough that a loaded machine's calls finish in time (12 concurrent calls share four slots
      // of the model server), short enough for the timeout tests, whose model never answers.
      PROVIDER_TIMEOUT_MS: "4000",
    });
    owner = await signUpAndConfirm(testApp);
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    apiKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "ci" },
        { session: owner.session },
      )
    ).json().apiKey.content;
    await addSandboxCard(testApp, owner.session, organizationId);
    await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId, amount: 20 },
      { session: owner.session },
    );
    png = await makePng(64, 48);
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("charges, stores and returns a result for an API-key call; history and statistics show it", async () => {
    const before = await balanceMicros();
    const response = await callWithKey("/v1/images/background-removal", [
      { name: "image", value: png, filename: "photo.png", contentType: "image/png" },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { balance, request } = response.json();
    expect(balance).toBe(19.99);
    expect(await balanceMicros()).toBe(before - 10_000n);
    expect(request).toMatchObject({
      status: "done",
      request_data: { files: { image: [expect.any(String)] }, body: {} },
    });
    expect(request.response_data.file).toMatch(/^\/v1\/files\//);

    // What the model server received: the public API's field names.
    expect(modelServer.requests.at(-1)?.body).toContain('name="image"');

    const history = (
      await post(
        testApp,
        "/v1/users/playground/get-requests",
        { endpoint: "/v1/images/background-removal", projectId, offset: 0 },
        { session: owner.session },
      )
    ).json();
    expect(history.requests[0].id).toBe(request.id);
    expect(history.priceInfo).toEqual({ price: 0.01 });
    expect(history.hasMoreItems).toBe(false);

    const queryDate = `${new Date().toISOString().slice(0, 7)}-01T00:00:00.000Z`;
    const statistics = (
      await post(
        testApp,
        "/v1/users/statistics/get",
        { projectIds: [projectId], queryDate },
        { session: owner.session },
      )
    ).json();
    expect(statistics.statistics).toContainEqual({
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      recordDate: new Date().toISOString().slice(0, 10),
      unitsUsed: 1,
      balanceUsed: 0.01,
    });
    expect(statistics.endpoints.length).toBeGreaterThanOrEqual(13);

    // The result and its thumbnail are served to the project, not to strangers.
    const file = await testApp.app.inject({
      method: "GET",
      url: request.response_data.file,
      headers: { authorization: `Bearer ${apiKey}` },
    });
    expect(file.statusCode).toBe(200);
    expect(file.headers["content-type"]).toBe("image/png");
    const thumb = await testApp.app.inject({
      method: "GET",
      url: `${request.response_data.file}_thumb`,
      cookies: { prism_session: owner.session },
    });
    expect(thumb.statusCode).toBe(200);
    const stranger = await signUpAndConfirm(testApp);
    const foreign = await testApp.app.inject({
      method: "GET",
      url: request.response_data.file,
      cookies: { prism_session: stranger.session },
    });
    expect(foreign.statusCode).toBe(404);
    const anonymous = await testApp.app.inject({ method: "GET", url: request.response_data.file });
    expect(anonymous.statusCode).toBe(404);
  });

  it("accepts face swapping without its optional mask, and stores the mask when one is sent", async () => {
    const image = (name: string) => ({ name, value: png, filename: `${name}.png`, contentType: "image/png" });
    const withoutMask = await callWithKey("/v1/images/face-swapping", [image("source"), image("target")]);
    expect(withoutMask.statusCode, withoutMask.body).toBe(200);
    expect(Object.keys(withoutMask.json().request.request_data.files).sort()).toEqual(["source", "target"]);
    expect(modelServer.requests.at(-1)?.body).not.toContain('name="mask"');

    const withMask = await callWithKey("/v1/images/face-swapping", [
      image("source"),
      image("target"),
      image("mask"),
    ]);
    expect(withMask.statusCode, withMask.body).toBe(200);
    expect(withMask.json().request.request_data.files.mask).toHaveLength(1);
    expect(modelServer.requests.at(-1)?.body).toContain('name="mask"');

    const withoutTarget = await callWithKey("/v1/images/face-swapping", [image("source")]);
    expect(withoutTarget.statusCode).toBe(400);
    expect(withoutTarget.json().message).toBe('The "target" file is required.');
  });

  it("stores JPEG inputs as JPEG and everything else, results included, as PNG, each upright", async () => {
    const jpeg = await sharp({ create: { width: 40, height: 20, channels: 3, background: "#c83" } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const response = await callWithKey("/v1/images/face-swapping", [
      { name: "source", value: jpeg, filename: "source.jpg", contentType: "image/jpeg" },
      { name: "target", value: png, filename: "target.png", contentType: "image/png" },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { files } = response.json().request.request_data;
    const fetchStored = async (url: string) => {
      const file = await testApp.app.inject({
        method: "GET",
        url,
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(file.statusCode).toBe(200);
      return { type: file.headers["content-type"], meta: await sharp(file.rawPayload).metadata() };
    };
    const source = await fetchStored(files.source[0]);
    expect(source.type).toBe("image/jpeg");
    // EXIF orientation 6 (rotate 90°) is applied to the pixels and dropped.
    expect([source.meta.width, source.meta.height, source.meta.orientation]).toEqual([20, 40, undefined]);
    expect((await fetchStored(files.target[0])).type).toBe("image/png");
    expect((await fetchStored(response.json().request.response_data.file)).type).toBe("image/png");
  });

  it("serves the playground with a session and the project header, with the same pipeline", async () => {
    const body = multipart([{ name: "image", value: png, filename: "p.png", contentType: "image/png" }]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { ...SAME_ORIGIN, "content-type": body.contentType, "x-authorization-project": projectId },
      cookies: { prism_session: owner.session },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    const stranger = await signUpAndConfirm(testApp);
    const foreign = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { ...SAME_ORIGIN, "content-type": body.contentType, "x-authorization-project": projectId },
      cookies: { prism_session: stranger.session },
      payload: body.payload,
    });
    expect(foreign.statusCode).toBe(404);
  });

  it("prices transcription per started minute and returns the JSON body", async () => {
    const response = await callWithKey("/v1/speech/transcription", [
      { name: "audio", value: makeWav(61), filename: "a.wav", contentType: "audio/wav" },
      { name: "language", value: "en" },
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const { request } = response.json();
    expect(request.response_data.body).toEqual({
      language: "en",
      segments: [{ start: 0, end: 1.5, text: "go forward ten meters" }],
    });
    const [row] = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.id, request.id));
    expect(row?.units).toBe(2);
    expect(row?.priceMicros).toBe(12_000n);
  });

  it("refunds when the provider fails or times out, and records the error", async () => {
    const before = await balanceMicros();
    const failed = await callWithKey("/v1/images/upscaling", [
      { name: "image", value: png, filename: "p.png", contentType: "image/png" },
    ]);
    expect(failed.statusCode).toBe(502);
    expect(failed.json().error).toBe("feature-failed");
    const timedOut = await callWithKey("/v1/images/object-removal", [
      { name: "image", value: png, filename: "p.png", contentType: "image/png" },
      { name: "mask", value: png, filename: "m.png", contentType: "image/png" },
    ]);
    expect(timedOut.statusCode).toBe(504);
    expect(timedOut.json().error).toBe("feature-timeout");
    expect(await balanceMicros()).toBe(before);
    expect(await ledgerBalance(testApp.database.db, organizationId)).toBe(before);
    const errors = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.organizationId, organizationId), eq(featureRequests.status, "error")));
    expect(errors.map((row) => row.endpoint).sort()).toEqual([
      "/v1/images/object-removal",
      "/v1/images/upscaling",
    ]);
  });

  it("gives the organization's call slot back however a call ends: settled, failed, timed out or swept", async () => {
    const callsInFlight = async () =>
      (
        await testApp.database.db
          .select({ count: organizations.callsInFlight })
          .from(organizations)
          .where(eq(organizations.id, organizationId))
      )[0]?.count;
    expect(await callsInFlight()).toBe(0);
    const image = { name: "image", value: png, filename: "p.png", contentType: "image/png" };
    expect((await callWithKey("/v1/images/background-removal", [image])).statusCode).toBe(200);
    expect(await callsInFlight()).toBe(0);
    expect((await callWithKey("/v1/images/upscaling", [image])).statusCode).toBe(502);
    expect(await callsInFlight()).toBe(0);
    const timedOut = await callWithKey("/v1/images/object-removal", [
      image,
      { name: "mask", value: png, filename: "m.png", contentType: "image/png" },
    ]);
    expect(timedOut.statusCode).toBe(504);
    expect(await callsInFlight()).toBe(0);

    // A call a crash abandoned after its reservation holds a slot until the sweeper refunds it.
    const before = await balanceMicros();
    const requestId = crypto.randomUUID();
    const reservation = await reserveCall(testApp.database.db, {
      organizationId,
      priceMicros: 10_000n,
      requestId,
      concurrentLimit: 0,
      budgetReached: budgetReached(organizationId),
      watch: {},
      request: {
        organizationId,
        projectId,
        endpoint: "/v1/images/background-removal",
        callType: "background-removal",
        provider: "http",
        requestFiles: {},
        requestBody: {},
        units: 1,
        priceMicros: 10_000n,
        createdAt: new Date(Date.now() - 3_600_000),
      },
    });
    expect(reservation.reserved).toBe(true);
    expect(await callsInFlight()).toBe(1);
    expect(await balanceMicros()).toBe(before - 10_000n);
    expect(await sweepAbandonedRequests(testApp.database.db, new Date(Date.now() - 60_000))).toBe(1);
    expect(await callsInFlight()).toBe(0);
    expect(await balanceMicros()).toBe(before);
  });

  it("answers 503 without charging for a feature no provider serves", async () => {
    const before = await balanceMicros();
    const response = await callWithKey("/v1/images/reimagine", [
      { name: "image", value: png, filename: "p.png", contentType: "image/png" },
      { name: "denoise", value: "0.7" },
    ]);
    expect(response.statusCode).toBe(503);
    expect(response.json().error).toBe("feature-unavailable");
    expect(await balanceMicros()).toBe(before);
    const status = (
      await post(testApp, "/v1/users/playground/feature-status", {}, { session: owner.session })
    ).json();
    const reimagine = status.features.find(
      (feature: { endpoint: string }) => feature.endpoint === "/v1/images/reimagine",
    );
    expect(reimagine).toMatchObject({ available: false, provider: null });
    const removal = status.features.find(
      (feature: { endpoint: string }) => feature.endpoint === "/v1/images/background-removal",
    );
    expect(removal).toMatchObject({ available: true, provider: "http", priceInfo: { price: 0.01 } });
  });

  it("answers 402 with nothing stored when the balance is short", async () => {
    const poor = await signUpAndConfirm(testApp);
    const poorProject = poor.userInfo.organizations[0].projects[0].id;
    const key = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: poorProject, apiKeyName: "k" },
        { session: poor.session },
      )
    ).json().apiKey.content;
    const response = await callWithKey(
      "/v1/images/background-removal",
      [{ name: "image", value: png, filename: "p.png", contentType: "image/png" }],
      key,
    );
    expect(response.statusCode).toBe(402);
    expect(response.json()).toMatchObject({
      error: "insufficient-balance",
      message:
        "Insufficient balance to complete the request. Please add funds to your organization to continue.",
    });
    const rows = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.projectId, poorProject));
    expect(rows).toEqual([]);
  });

  it("lets exactly K of N concurrent calls through a balance for K", async () => {
    const buyer = await signUpAndConfirm(testApp);
    const buyerOrganization = buyer.userInfo.organizations[0].id;
    const buyerProject = buyer.userInfo.organizations[0].projects[0].id;
    await testApp.database.db.transaction((tx) =>
      credit(tx, {
        organizationId: buyerOrganization,
        amountMicros: 50_000n,
        reference: `grant-${buyerOrganization}`,
      }),
    );
    const key = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: buyerProject, apiKeyName: "k" },
        { session: buyer.session },
      )
    ).json().apiKey.content;
    const responses = await Promise.all(
      Array.from({ length: 12 }, () =>
        callWithKey(
          "/v1/images/background-removal",
          [{ name: "image", value: png, filename: "p.png", contentType: "image/png" }],
          key,
        ),
      ),
    );
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(5);
    expect(statuses.filter((status) => status === 402)).toHaveLength(7);
    expect(await cachedBalance(testApp.database.db, buyerOrganization)).toBe(0n);
  });

  it("refuses revoked keys and keys of archived projects", async () => {
    const { apiKey: created } = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "short-lived" },
        { session: owner.session },
      )
    ).json();
    await post(
      testApp,
      "/v1/users/api-keys/delete",
      { projectId, apiKeyId: created.id },
      { session: owner.session },
    );
    const revoked = await callWithKey(
      "/v1/images/background-removal",
      [{ name: "image", value: png, filename: "p.png", contentType: "image/png" }],
      created.content,
    );
    expect(revoked.statusCode).toBe(401);
    expect(revoked.json().error).toBe("invalid-api-key");
    const garbage = await callWithKey(
      "/v1/images/background-removal",
      [{ name: "image", value: png, filename: "p.png", contentType: "image/png" }],
      "psk_nope",
    );
    expect(garbage.statusCode).toBe(401);
  });

  describe("upload limits, checked by content", () => {
    it("refuses a tiny file whose header claims 20000x20000 pixels, before decoding it", async () => {
      const before = await balanceMicros();
      const response = await callWithKey("/v1/images/background-removal", [
        {
          name: "image",
          value: makeLyingPng(20_000, 20_000),
          filename: "bomb.png",
          contentType: "image/png",
        },
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json()).toMatchObject({
        error: "image-dimensions-exceeded",
        message:
          "The uploaded image exceeds the 16 Megapixel limit. Please use an image with dimensions under 16 Megapixels.",
      });
      expect(await balanceMicros()).toBe(before);
    });

    it("applies the 4 megapixel limit to upscaling", async () => {
      const response = await callWithKey("/v1/images/upscaling", [
        { name: "image", value: makeLyingPng(2100, 2100), filename: "big.png", contentType: "image/png" },
      ]);
      expect(response.statusCode).toBe(413);
      expect(response.json().message).toBe("The uploaded image exceeds the 4 Megapixel limit.");
    });

    it("refuses a file that is not an image whatever its name, and a body over 30MB", async () => {
      const text = await callWithKey("/v1/images/background-removal", [
        {
          name: "image",
          value: Buffer.from("definitely not a png"),
          filename: "fake.png",
          contentType: "image/png",
        },
      ]);
      expect(text.statusCode).toBe(415);
      const huge = Buffer.concat([png, Buffer.alloc(31_457_281)]);
      const tooBig = await callWithKey("/v1/images/background-removal", [
        { name: "image", value: huge, filename: "huge.png", contentType: "image/png" },
      ]);
      expect(tooBig.statusCode).toBe(413);
      expect(tooBig.json().message).toBe(
        "The uploaded image exceeds the 30MB limit. Please use an image smaller than 30MB.",
      );
    });

    it("refuses audio over 5 minutes and unreadable audio", async () => {
      const long = await callWithKey("/v1/speech/transcription", [
        { name: "audio", value: makeWav(301, 2_000), filename: "long.wav", contentType: "audio/wav" },
      ]);
      expect(long.statusCode).toBe(413);
      expect(long.json().error).toBe("audio-too-long");
      const broken = await callWithKey("/v1/speech/transcription", [
        {
          name: "audio",
          value: Buffer.from("RIFF....WAVEjunk"),
          filename: "x.wav",
          contentType: "audio/wav",
        },
      ]);
      expect([415, 422]).toContain(broken.statusCode);
    });

    it("keeps extension within 4096 px per side and refuses unknown fields", async () => {
      const tooWide = await callWithKey("/v1/images/extension", [
        { name: "image", value: png, filename: "p.png", contentType: "image/png" },
        { name: "left", value: "4000" },
        { name: "right", value: "100" },
      ]);
      expect(tooWide.statusCode).toBe(422);
      const unknown = await callWithKey("/v1/images/background-removal", [
        { name: "image", value: png, filename: "p.png", contentType: "image/png" },
        { name: "smuggled", value: png, filename: "s.png", contentType: "image/png" },
      ]);
      expect(unknown.statusCode).toBe(400);
      const missing = await callWithKey("/v1/images/background-removal", [
        { name: "note", value: "no file" },
      ]);
      expect(missing.statusCode).toBe(400);
    });
  });

  it("pages history by finished items, with deletes in between", async () => {
    const pager = await signUpAndConfirm(testApp);
    const pagerOrganization = pager.userInfo.organizations[0].id;
    const pagerProject = pager.userInfo.organizations[0].projects[0].id;
    await testApp.database.db.transaction((tx) =>
      credit(tx, {
        organizationId: pagerOrganization,
        amountMicros: 1_000_000n,
        reference: `grant-${pagerOrganization}`,
      }),
    );
    const key = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: pagerProject, apiKeyName: "k" },
        { session: pager.session },
      )
    ).json().apiKey.content;
    const ids: string[] = [];
    for (let index = 0; index < 23; index += 1) {
      const response = await callWithKey(
        "/v1/images/background-removal",
        [{ name: "image", value: png, filename: "p.png", contentType: "image/png" }],
        key,
      );
      ids.push(response.json().request.id);
    }
    const page = (offset: number) =>
      post(
        testApp,
        "/v1/users/playground/get-requests",
        { endpoint: "/v1/images/background-removal", projectId: pagerProject, offset },
        { session: pager.session },
      ).then((response) => response.json());
    const first = await page(0);
    expect(first.requests.map((request: { id: string }) => request.id)).toEqual(
      [...ids].reverse().slice(0, 20),
    );
    expect(first.hasMoreItems).toBe(true);
    // Two of the newest go away: the next page at offset 18 still continues exactly where the list was.
    for (const id of [ids[22], ids[21]]) {
      expect(
        (
          await post(
            testApp,
            "/v1/users/playground/delete-request",
            { projectId: pagerProject, requestId: id },
            { session: pager.session },
          )
        ).statusCode,
      ).toBe(200);
    }
    const second = await page(18);
    expect(second.requests.map((request: { id: string }) => request.id)).toEqual([ids[2], ids[1], ids[0]]);
    expect(second.hasMoreItems).toBe(false);
  });

  it("keeps statistics equal to a recomputation from the request log", async () => {
    const rows = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.status, "done"));
    const expected = new Map<string, { units: number; cost: bigint }>();
    for (const row of rows) {
      const key = `${row.projectId}|${row.endpoint}|${row.callType}|${row.createdAt.toISOString().slice(0, 10)}`;
      const entry = expected.get(key) ?? { units: 0, cost: 0n };
      expected.set(key, { units: entry.units + row.units, cost: entry.cost + row.priceMicros });
    }
    const rollup = await testApp.database.db.select().from(usageDaily);
    const actual = new Map(
      rollup.map((row) => [
        `${row.projectId}|${row.endpoint}|${row.callType}|${row.day}`,
        { units: row.units, cost: row.costMicros },
      ]),
    );
    expect(actual).toEqual(expected);
  });

  it("submits AI Clone training within the call, answers with its identityId, and follows its status", async () => {
    const images = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(32 + index, 32)));
    const parts = [
      ...images.map((image, index) => ({
        name: "images",
        value: image,
        filename: `face-${index}.png`,
        contentType: "image/png",
      })),
      { name: "description", value: "My clone" },
    ];
    // A new organization (no deposit yet) may not train.
    const fresh = await signUpAndConfirm(testApp);
    const freshOrganization = fresh.userInfo.organizations[0].id;
    const freshProject = fresh.userInfo.organizations[0].projects[0].id;
    await testApp.database.db.transaction((tx) =>
      credit(tx, {
        organizationId: freshOrganization,
        amountMicros: 10_000_000n,
        reference: `grant-${freshOrganization}`,
      }),
    );
    const freshKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: freshProject, apiKeyName: "k" },
        { session: fresh.session },
      )
    ).json().apiKey.content;
    const locked = await callWithKey("/v1/images/pegasus-training", parts, freshKey);
    expect(locked.statusCode, locked.body).toBe(402);
    expect(locked.json().error).toBe("first-deposit-required");

    const tooFew = await callWithKey("/v1/images/pegasus-training", parts.slice(2));
    expect(tooFew.statusCode).toBe(400);

    const before = await balanceMicros();
    const submissions = modelServer.requests.filter((request) => request.path === "/pegasus-training").length;
    const started = await callWithKey("/v1/images/pegasus-training", parts);
    expect(started.statusCode, started.body).toBe(200);
    // The model server took the photos during the call and named the identity to come.
    expect(started.json().request).toMatchObject({
      status: "done",
      response_data: { body: { identityId: "identity-1", status: "pending" } },
    });
    expect(started.json().request.request_data.files.images).toHaveLength(10);
    expect(modelServer.requests.filter((request) => request.path === "/pegasus-training")).toHaveLength(
      submissions + 1,
    );
    expect(await balanceMicros()).toBe(before - 5_000_000n);

    // An API user follows the clone with the key alone.
    const identities = async () => {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/playground/get-trained-identities",
        headers: { authorization: `Bearer ${apiKey}` },
        payload: { projectId, offset: 0 },
      });
      expect(response.statusCode, response.body).toBe(200);
      return response.json().requests;
    };
    expect(await identities()).toMatchObject([
      {
        id: started.json().request.id,
        description: "My clone",
        identity_id: "identity-1",
        identity_status: "pending",
      },
    ]);

    // The status poll runs later in the job queue; bring it forward until the model server says ready.
    for (let round = 0; round < 2; round += 1) {
      await testApp.database.db
        .update(jobs)
        .set({ runAt: new Date(0) })
        .where(eq(jobs.kind, "training-poll"));
      await testApp.app.jobWorker.drain();
    }
    expect((await identities())[0].identity_status).toBe("ready");
    expect(await balanceMicros()).toBe(before - 5_000_000n);
    // Nothing submits the training again.
    expect(modelServer.requests.filter((request) => request.path === "/pegasus-training")).toHaveLength(
      submissions + 1,
    );
  });

  it("refunds a training the model server refuses, answering the refusal in the call", async () => {
    const images = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(40 + index, 40)));
    const before = await balanceMicros();
    refuseNextTraining = true;
    const refused = await callWithKey("/v1/images/pegasus-training", [
      ...images.map((image, index) => ({
        name: "images",
        value: image,
        filename: `face-${index}.png`,
        contentType: "image/png",
      })),
      { name: "description", value: "Faceless" },
    ]);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(refused.json()).toMatchObject({
      error: "unprocessable-input",
      message: "No face found in the photos.",
    });
    expect(await balanceMicros()).toBe(before);
    const [row] = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(and(eq(featureRequests.projectId, projectId), eq(featureRequests.status, "error")))
      .orderBy(desc(featureRequests.createdAt))
      .limit(1);
    expect(row).toMatchObject({
      endpoint: "/v1/images/pegasus-training",
      errorMessage: "No face found in the photos.",
    });
  });

  it("lets an API key list its own project's AI Clones and no other project's", async () => {
    const listWith = (headers: Record<string, string>, project: string) =>
      testApp.app.inject({
        method: "POST",
        url: "/v1/users/playground/get-trained-identities",
        headers,
        payload: { projectId: project, offset: 0 },
      });
    const stranger = await signUpAndConfirm(testApp);
    const strangerProject = stranger.userInfo.organizations[0].projects[0].id;
    const strangerKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: strangerProject, apiKeyName: "k" },
        { session: stranger.session },
      )
    ).json().apiKey.content;

    const own = await listWith({ authorization: `Bearer ${strangerKey}` }, strangerProject);
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json()).toEqual({ requests: [], hasMoreItems: false });

    const other = await listWith({ authorization: `Bearer ${strangerKey}` }, projectId);
    expect(other.statusCode).toBe(404);
    expect(other.json().error).toBe("not-found");

    const forged = await listWith({ authorization: "Bearer psk_not-a-real-key" }, projectId);
    expect(forged.statusCode).toBe(401);
    expect(forged.json().error).toBe("invalid-api-key");
    expect((await listWith({}, projectId)).statusCode).toBe(401);
  });

  it("refunds a call a crash left generating", async () => {
    const before = await balanceMicros();
    const { requestId } = await reserveForCall(testApp.database.db, {
      organizationId,
      amountMicros: 10_000n,
    });
    // As a process that died an hour into the call leaves its row: running, no lease renewed.
    await testApp.database.db
      .update(featureRequests)
      .set({ status: "generating", createdAt: new Date(Date.now() - 3_600_000) })
      .where(eq(featureRequests.id, requestId));
    expect(await balanceMicros()).toBe(before - 10_000n);
    expect(await sweepAbandonedRequests(testApp.database.db, new Date(Date.now() - 60_000))).toBe(1);
    expect(await balanceMicros()).toBe(before);
    const [row] = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.id, requestId));
    expect(row?.status).toBe("error");
    expect(await sweepAbandonedRequests(testApp.database.db, new Date())).toBe(0);
  });
});
