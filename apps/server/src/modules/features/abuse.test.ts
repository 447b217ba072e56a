import { readFile } from "node:fs/promises";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import {
  AUDIO_TOO_LONG,
  ERROR_DIALOGS,
  NO_FACE_IN_SOURCE,
  NO_FACE_IN_TARGET,
  NO_FOREGROUND_FOUND,
  NO_SPEECH_FOUND,
  nonProductionFieldText,
  queuedCallsLimitedText,
} from "@prism/contract";
import { and, eq, isNotNull, sql } from "drizzle-orm";
import type { FastifyInstance } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { makeFlacWithLyingStreamInfo, makeWavWithLyingFact } from "../../../test/audio";
import { makePng, makeWav, multipart } from "../../../test/images";
import { STUB_TRANSCRIPT, type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { buildApp } from "../../app";
import { createProviderRegistry } from "../../app-dependencies";
import { loadConfig } from "../../config";
import { featureRequests, ledgerEntries } from "../../db/schema";
import { cachedBalance, credit } from "../ledger/ledger.service";

/**
 * The feature gateway attacked through HTTP: metadata that understates what is billed, uploads from
 * callers who cannot pay, floods of calls, and debugging controls sent to production. Every refusal
 * must leave the balance and the request log as they were.
 */

type Parts = Parameters<typeof multipart>[0];

const TINY_PNG = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#204060" } })
  .png()
  .toBuffer();

/** A model server (docs/model-server.md) whose calls can be held open on demand. */
function startModelServer() {
  return startModelServerStub({
    answers: {
      "/speech-to-text": { status: 200, json: STUB_TRANSCRIPT },
      "/image-generation": "png",
      "/image-background-removal": "png",
      "/generative-fill": "png",
      "/text-removal": "png",
      "/reimagine": "png",
    },
  });
}

async function until(condition: () => boolean | Promise<boolean>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** An organization with `fundsMicros` on its balance and an API key of its project. */
async function newAccount(testApp: TestApp, fundsMicros: bigint) {
  const owner = await signUpAndConfirm(testApp);
  const organizationId: string = owner.userInfo.organizations[0].id;
  const projectId: string = owner.userInfo.organizations[0].projects[0].id;
  const newKey = async () =>
    (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "abuse" },
        { session: owner.session },
      )
    ).json().apiKey.content as string;
  if (fundsMicros > 0n) {
    await testApp.database.db.transaction((tx) =>
      credit(tx, { organizationId, amountMicros: fundsMicros, reference: `grant-${organizationId}` }),
    );
  }
  return { owner, organizationId, projectId, apiKey: await newKey(), newKey };
}

function callWith(app: FastifyInstance, apiKey: string, endpoint: string, parts: Parts) {
  const body = multipart(parts);
  return app.inject({
    method: "POST",
    url: endpoint,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
    payload: body.payload,
  });
}

/** Another server process on the same database, as a second replica behind a load balancer. */
async function secondServer(testApp: TestApp): Promise<FastifyInstance> {
  const app = await buildApp(
    {
      ...testApp.deps,
      registry: createProviderRegistry(testApp.config),
      // The first app owns the database connection; this one must not close it.
      database: { ...testApp.database, close: async () => undefined },
    },
    { logger: false, runJobs: false },
  );
  await app.ready();
  return app;
}

describe("feature gateway abuse", () => {
  let model: StubModelServer;
  let testApp: TestApp;
  let replica: FastifyInstance;

  const requestRows = (organizationId: string) =>
    testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, organizationId));

  beforeAll(async () => {
    model = await startModelServer();
    testApp = await createTestApp({
      MODEL_SERVER_URL: model.url,
      MODEL_SERVER_FEATURES: "image-generation,image-background-removal,speech-to-text",
      PROVIDER_TIMEOUT_MS: "20000",
      ORGANIZATION_QUEUED_CALLS: "2",
      API_KEY_REQUESTS_PER_MINUTE: "8",
    });
    replica = await secondServer(testApp);
  });

  afterAll(async () => {
    model?.release();
    await replica?.close();
    await testApp?.close();
    await model?.close();
  });

  describe("billed audio length is the real length", () => {
    const transcribe = (apiKey: string, audio: Buffer, filename: string, contentType: string) =>
      callWith(testApp.app, apiKey, "/v1/speech/transcription", [
        { name: "audio", value: audio, filename, contentType },
      ]);

    it("bills a WAV whose fact chunk claims 1 minute by its 3 minutes of PCM data", async () => {
      const account = await newAccount(testApp, 1_000_000n);
      const response = await transcribe(
        account.apiKey,
        makeWavWithLyingFact(180, 60),
        "short.wav",
        "audio/wav",
      );
      expect(response.statusCode, response.body).toBe(200);
      const [row] = await requestRows(account.organizationId);
      expect(row).toMatchObject({ units: 3, priceMicros: 18_000n, status: "done" });
      expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - 18_000n);
    });

    it("refuses a WAV whose fact chunk claims 1 minute over 6 minutes of data as too long, before charging", async () => {
      const account = await newAccount(testApp, 1_000_000n);
      const modelCalls = model.requests.filter((request) => request.method === "POST").length;
      const response = await transcribe(
        account.apiKey,
        makeWavWithLyingFact(360, 60),
        "long.wav",
        "audio/wav",
      );
      expect(response.statusCode, response.body).toBe(413);
      expect(response.json()).toMatchObject({ error: "audio-too-long", message: AUDIO_TOO_LONG.message });
      expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
      expect(await requestRows(account.organizationId)).toEqual([]);
      expect(model.requests.filter((request) => request.method === "POST").length).toBe(modelCalls);
    });

    it("bills a FLAC whose STREAMINFO claims 1 minute by its 3 decoded minutes, and refuses 6", async () => {
      const account = await newAccount(testApp, 1_000_000n);
      const billed = await transcribe(
        account.apiKey,
        makeFlacWithLyingStreamInfo(180, 60),
        "short.flac",
        "audio/flac",
      );
      expect(billed.statusCode, billed.body).toBe(200);
      expect((await requestRows(account.organizationId))[0]).toMatchObject({
        units: 3,
        priceMicros: 18_000n,
      });

      const tooLong = await transcribe(
        account.apiKey,
        makeFlacWithLyingStreamInfo(360, 60),
        "long.flac",
        "audio/flac",
      );
      expect(tooLong.statusCode, tooLong.body).toBe(413);
      expect(tooLong.json().message).toBe(AUDIO_TOO_LONG.message);
      expect(await requestRows(account.organizationId)).toHaveLength(1);
      expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - 18_000n);
    });
  });

  describe("a caller who cannot pay is refused before the upload is read", () => {
    it("answers 402 to a 30 MB upload from an empty account after its first megabyte", async () => {
      const account = await newAccount(testApp, 0n);
      await testApp.app.listen({ port: 0, host: "127.0.0.1" });
      const { port } = testApp.app.server.address() as AddressInfo;
      const boundary = "----prism-abuse-boundary";
      const head = Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
      );
      const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
      const fileBytes = 30 * 1024 * 1024;
      const client = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: "/v1/images/background-removal",
        headers: {
          authorization: `Bearer ${account.apiKey}`,
          "content-type": `multipart/form-data; boundary=${boundary}`,
          "content-length": String(head.length + fileBytes + tail.length),
        },
      });
      client.on("error", () => undefined);
      const answer = new Promise<{ status: number; body: string }>((resolve) => {
        client.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () =>
            resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
          );
        });
      });
      // Only the first megabyte of the 30 goes out; a server that reads the whole upload before
      // checking the balance never answers.
      client.write(head);
      client.write(Buffer.concat([TINY_PNG, Buffer.alloc(1024 * 1024 - TINY_PNG.length)]));
      const result = await Promise.race([
        answer,
        new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
      ]);
      client.destroy();
      expect(result, "no answer while the upload was still being sent").toBeDefined();
      expect(result?.status).toBe(402);
      expect(JSON.parse(result?.body ?? "{}")).toMatchObject({
        error: "insufficient-balance",
        message: ERROR_DIALOGS.insufficientBalance.message,
      });
      expect(await requestRows(account.organizationId)).toEqual([]);
    });

    it("checks the one-minute price first and reserves the measured minutes after reading the audio", async () => {
      // Enough for one minute of transcription, not for three.
      const account = await newAccount(testApp, 10_000n);
      const response = await callWith(testApp.app, account.apiKey, "/v1/speech/transcription", [
        { name: "audio", value: makeWavWithLyingFact(180, 60), filename: "a.wav", contentType: "audio/wav" },
      ]);
      expect(response.statusCode, response.body).toBe(402);
      expect(response.json().error).toBe("insufficient-balance");
      expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(10_000n);
      expect(await requestRows(account.organizationId)).toEqual([]);
    });

    it("holds at most ORGANIZATION_QUEUED_CALLS calls of one organization queued or running, across server processes", async () => {
      const account = await newAccount(testApp, 1_000_000n);
      const generate = (app: FastifyInstance) =>
        callWith(app, account.apiKey, "/v1/images/generation", [
          { name: "prompt", value: "a lighthouse" },
          { name: "width", value: "256" },
          { name: "height", value: "256" },
        ]);
      model.control.hold = true;
      try {
        const first = generate(testApp.app);
        const second = generate(replica);
        await until(() => model.held.length === 2, 15_000);
        const third = await Promise.race([
          generate(replica),
          new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 10_000)),
        ]);
        expect(third, "the third call was let through to the model").toBeDefined();
        expect(third?.statusCode, third?.body).toBe(429);
        expect(third?.json()).toMatchObject({
          error: "rate-limited",
          message: queuedCallsLimitedText(2),
        });
        expect(Number(third?.headers["retry-after"])).toBeGreaterThanOrEqual(1);
        expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n - 40_000n);
        expect(await requestRows(account.organizationId)).toHaveLength(2);

        model.control.hold = false;
        model.release();
        expect((await first).statusCode).toBe(200);
        expect((await second).statusCode).toBe(200);
        const after = await generate(testApp.app);
        expect(after.statusCode, after.body).toBe(200);
      } finally {
        model.control.hold = false;
        model.release();
      }
    });

    it("limits each API key to API_KEY_REQUESTS_PER_MINUTE requests, counted across server processes", async () => {
      const account = await newAccount(testApp, 0n);
      const parts: Parts = [{ name: "image", value: TINY_PNG, filename: "p.png", contentType: "image/png" }];
      for (let index = 0; index < 8; index += 1) {
        const response = await callWith(
          index % 2 === 0 ? testApp.app : replica,
          account.apiKey,
          "/v1/images/background-removal",
          parts,
        );
        expect(response.statusCode, `call ${index + 1}`).toBe(402);
      }
      const limited = await callWith(replica, account.apiKey, "/v1/images/background-removal", parts);
      expect(limited.statusCode, limited.body).toBe(429);
      expect(limited.json().error).toBe("rate-limited");
      const retryAfter = Number(limited.headers["retry-after"]);
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(limited.json().message).toContain(`${retryAfter} seconds`);
      // Another key of the same project has its own allowance.
      const other = await callWith(
        testApp.app,
        await account.newKey(),
        "/v1/images/background-removal",
        parts,
      );
      expect(other.statusCode).toBe(402);
    });
  });
});

describe("debugging controls in production", () => {
  let model: StubModelServer;
  let testApp: TestApp;
  let png: Buffer;

  beforeAll(async () => {
    model = await startModelServer();
    const env = {
      MODEL_SERVER_URL: model.url,
      MODEL_SERVER_FEATURES: "generative-fill,text-removal,reimagine",
    };
    // What the server decides from APP_ENV=production; the rest of the set-up stays the test's own.
    const production = {
      ...loadConfig({ APP_ENV: "test", LOG_LEVEL: "silent", BUILTIN_ENGINE: "off", ...env }),
      appEnv: "production" as const,
      isProduction: true,
    };
    testApp = await createTestApp(env, { config: production });
    png = await makePng(32, 32);
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
  });

  it("refuses cfg, denoise, fast_mode and reimagine's mask with 400, charging and storing nothing", async () => {
    const account = await newAccount(testApp, 1_000_000n);
    const image = { name: "image", value: png, filename: "p.png", contentType: "image/png" };
    const mask = { name: "mask", value: png, filename: "m.png", contentType: "image/png" };
    const attempts: { endpoint: string; parts: Parts; field: string }[] = [
      {
        endpoint: "/v1/images/generative-fill",
        parts: [image, mask, { name: "cfg", value: "90" }],
        field: "cfg",
      },
      {
        endpoint: "/v1/images/generative-fill",
        parts: [image, mask, { name: "denoise", value: "1" }],
        field: "denoise",
      },
      {
        endpoint: "/v1/images/text-removal",
        parts: [image, { name: "fast_mode", value: "true" }],
        field: "fast_mode",
      },
      { endpoint: "/v1/images/reimagine", parts: [image, mask], field: "mask" },
    ];
    const modelCalls = () => model.requests.filter((request) => request.method === "POST").length;
    const modelCallsBefore = modelCalls();
    for (const attempt of attempts) {
      const response = await callWith(testApp.app, account.apiKey, attempt.endpoint, attempt.parts);
      expect(response.statusCode, `${attempt.endpoint} ${attempt.field}: ${response.body}`).toBe(400);
      expect(response.json()).toMatchObject({
        error: "invalid-input",
        message: nonProductionFieldText(attempt.field),
      });
    }
    expect(modelCalls()).toBe(modelCallsBefore);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    expect(
      await testApp.database.db
        .select()
        .from(featureRequests)
        .where(eq(featureRequests.organizationId, account.organizationId)),
    ).toEqual([]);

    // The same calls without the debugging controls run.
    const fill = await callWith(testApp.app, account.apiKey, "/v1/images/generative-fill", [image, mask]);
    expect(fill.statusCode, fill.body).toBe(200);
    const reimagine = await callWith(testApp.app, account.apiKey, "/v1/images/reimagine", [
      image,
      { name: "denoise", value: "0.8" },
    ]);
    expect(reimagine.statusCode, reimagine.body).toBe(200);
  });
});

/**
 * Issue 27, item 9: a result the builtin engine could not honestly make is not sold. Face swapping onto
 * a rocket on its launch pad used to paste a blob on the pad and charge $0.02; now it, and its kin (an
 * all-clear background removal, an empty transcript), answer 422 with the reason, keep no result and
 * leave the balance as it was. Real photos from fixtures/ (licences in fixtures/README.md).
 */
describe("no charge for a result the builtin engine could not honestly make", () => {
  let testApp: TestApp;
  const fixture = (name: string) => readFile(new URL(`../../../../../fixtures/${name}`, import.meta.url));

  beforeAll(async () => {
    testApp = await createTestApp({ BUILTIN_ENGINE: "on", ENGINE_WORKERS: "1" });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("answers 422 with the reason, keeps no result and charges nothing", async () => {
    const account = await newAccount(testApp, 1_000_000n);
    const portrait = await sharp(await fixture("images/astronaut.png"))
      .removeAlpha()
      .resize(256)
      .png()
      .toBuffer();
    const rocket = await fixture("images/rocket.jpg");
    const grass = await sharp(await fixture("images/grass.png"))
      .resize(256)
      .png()
      .toBuffer();
    const png = (name: string, value: Buffer, filename = "photo.png", contentType = "image/png") => ({
      name,
      value,
      filename,
      contentType,
    });
    const attempts: { endpoint: string; parts: Parts; message: string }[] = [
      {
        endpoint: "/v1/images/face-swapping",
        parts: [png("source", portrait), png("target", rocket, "rocket.jpg", "image/jpeg")],
        message: NO_FACE_IN_TARGET,
      },
      {
        endpoint: "/v1/images/face-swapping",
        parts: [png("source", rocket, "rocket.jpg", "image/jpeg"), png("target", portrait)],
        message: NO_FACE_IN_SOURCE,
      },
      {
        endpoint: "/v1/images/background-removal",
        parts: [png("image", grass)],
        message: NO_FOREGROUND_FOUND,
      },
      {
        endpoint: "/v1/speech/transcription",
        parts: [
          { name: "audio", value: makeWav(3, 16_000), filename: "silence.wav", contentType: "audio/wav" },
          { name: "language", value: "en" },
        ],
        message: NO_SPEECH_FOUND,
      },
    ];
    for (const attempt of attempts) {
      const response = await callWith(testApp.app, account.apiKey, attempt.endpoint, attempt.parts);
      expect(response.statusCode, `${attempt.endpoint}: ${response.body}`).toBe(422);
      expect(response.json()).toMatchObject({ error: "unprocessable-input", message: attempt.message });
    }
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
    const rows = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, account.organizationId));
    expect(rows).toHaveLength(attempts.length);
    for (const row of rows) {
      // The failed row the history shows ("Generation Error" with the reason), refunded, with no result.
      expect(row.status).toBe("error");
      expect(row.responseFile).toBeNull();
      expect(row.responseBody).toBeNull();
      expect(attempts.map((attempt) => attempt.message)).toContain(row.errorMessage);
    }
    // Every reservation was given back in full: the ledger of these calls sums to nothing.
    const [sum] = await testApp.database.db
      .select({ total: sql<string>`coalesce(sum(${ledgerEntries.amountMicros}), 0)` })
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.organizationId, account.organizationId), isNotNull(ledgerEntries.requestId)),
      );
    expect(BigInt(sum?.total ?? "1")).toBe(0n);

    // The same features still sell what they can make: a real face onto a real face.
    const swapped = await callWith(testApp.app, account.apiKey, "/v1/images/face-swapping", [
      png("source", portrait),
      png("target", await sharp(portrait).flop().png().toBuffer()),
    ]);
    expect(swapped.statusCode, swapped.body).toBe(200);
    // The segmentation model alone takes half a minute to load on a small CI machine.
  }, 300_000);
});
