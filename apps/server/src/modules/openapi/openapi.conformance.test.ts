import { calls, FEATURES, type Feature, pegasusTrainingFeature, USAGE_PATH } from "@prism/contract";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeWav, multipart } from "../../../test/images";
import { fundedAccount, limitsWith, TINY_PNG } from "../../../test/key-fixtures";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizations } from "../../db/schema";
import { exampleBody } from "./examples";
import type { JsonObject, OpenApiDocument } from "./types";

/**
 * The served OpenAPI document against the server itself (issue 30 item 3): real requests to every path
 * of /v1/openapi.json, each answer's status looked up in the document and its body validated with Ajv
 * against the documented schema, made strict (an object may not carry a property the document does not
 * name), and its required headers checked. A field the server adds, a status it answers that the
 * document does not list, or a path the test never reached fails here.
 */

const JSON_TYPE = "application/json";

/** A model server (the remote GPU service) that answers every feature as docs/model-server.md says. */
function startEveryFeatureModelServer(control: { fail: boolean }): Promise<LocalServer> {
  return startLocalServer(async (request, response) => {
    if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, {});
    if (request.method === "GET" && request.path.startsWith("/pegasus-training/"))
      return sendJson(response, 200, { status: "ready" });
    if (control.fail) return sendJson(response, 500, { message: "out of memory" });
    if (request.path === "/speech-to-text") {
      return sendJson(response, 200, {
        language: "en",
        duration: 1,
        segments: [{ start: 0, end: 1, text: "hello" }],
      });
    }
    if (request.path === "/pegasus-training") {
      return sendJson(response, 200, { identityId: "identity-1", status: "pending" });
    }
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: "#446688" } })
      .png()
      .toBuffer();
    response.writeHead(200, { "content-type": "image/png" });
    response.end(png);
  });
}

/** Every object schema closed: the document must name every property the server sends. */
function strict(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(strict);
  if (typeof value !== "object" || value === null) return value;
  const object = Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, strict(inner)]));
  if (object.properties && object.additionalProperties === undefined && !object.allOf) {
    object.additionalProperties = false;
  }
  return object;
}

function pathTemplateOf(document: OpenApiDocument, path: string): string | undefined {
  const bare = path.split("?")[0] ?? path;
  return Object.keys(document.paths).find((template) => {
    const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`);
    return pattern.test(bare);
  });
}

describe("the OpenAPI document matches what the server answers", () => {
  let testApp: TestApp;
  let model: LocalServer;
  const control = { fail: false };
  let document: OpenApiDocument;
  let ajv: Ajv2020;
  /** `METHOD template` → statuses seen. */
  const seen = new Map<string, Set<number>>();
  let key = "";
  let projectId = "";

  beforeAll(async () => {
    model = await startEveryFeatureModelServer(control);
    testApp = await createTestApp({
      MODEL_SERVER_URL: model.url,
      MODEL_SERVER_FEATURES: "all",
      PROVIDER_TIMEOUT_MS: "20000",
    });
    const account = await fundedAccount(testApp, 1_000_000_000n);
    projectId = account.projectId;
    // Past its first deposit, so AI Clone training is open (as a real deposit leaves it).
    await testApp.database.db
      .update(organizations)
      .set({ isNew: false })
      .where(eq(organizations.id, account.organizationId));
    key = (await account.createKey(undefined, "conformance")).content;
    const answer = await testApp.app.inject({ method: "GET", url: "/v1/openapi.json" });
    document = answer.json();
    ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addFormat("binary", true);
    ajv.addSchema(strict(document) as JsonObject, "openapi.json");
  }, 60_000);

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
  });

  /** Sends the request and checks its answer against the document; returns the answer. */
  async function call(
    method: "GET" | "POST",
    url: string,
    options: Omit<InjectOptions, "method" | "url"> = {},
  ) {
    const answer = await testApp.app.inject({ ...options, method, url });
    const template = pathTemplateOf(document, url);
    expect(template, `${method} ${url} is not in the document`).toBeDefined();
    const operation = document.paths[template!]?.[method.toLowerCase() as "get" | "post"] as
      | { responses: Record<string, JsonObject> }
      | undefined;
    expect(operation, `${method} ${template} is not in the document`).toBeDefined();
    const status = answer.statusCode;
    const pointer = `#/paths/${template!.replaceAll("~", "~0").replaceAll("/", "~1")}/${method.toLowerCase()}/responses/${status}`;
    let response = operation!.responses[String(status)];
    expect(
      response,
      `${method} ${template} answered ${status}, which the document does not list: ${answer.body}`,
    ).toBeDefined();
    let responsePointer = pointer;
    if (typeof response!.$ref === "string") {
      responsePointer = response!.$ref as string;
      const name = responsePointer.split("/").pop()!;
      response = document.components.responses[name]!;
    }
    for (const [name, header] of Object.entries((response!.headers ?? {}) as Record<string, JsonObject>)) {
      if (header.required)
        expect(answer.headers[name.toLowerCase()], `${status} without ${name}`).toBeDefined();
    }
    const contentType = String(answer.headers["content-type"] ?? "").split(";")[0]!;
    const content = response!.content as Record<string, JsonObject> | undefined;
    expect(content?.[contentType], `${method} ${template} ${status} answered ${contentType}`).toBeDefined();
    if (contentType === JSON_TYPE) {
      const schemaPointer = `openapi.json${responsePointer}/content/${JSON_TYPE.replace("/", "~1")}/schema`;
      const validate = ajv.getSchema(schemaPointer) ?? ajv.compile({ $ref: schemaPointer });
      const valid = validate(answer.json());
      expect(validate.errors ?? [], `${method} ${template} ${status}: ${answer.body}`).toEqual([]);
      expect(valid).toBe(true);
    }
    const key = `${method} ${template}`;
    if (!seen.has(key)) seen.set(key, new Set());
    seen.get(key)!.add(status);
    return answer;
  }

  function partsOf(feature: Feature, body: Record<string, string | number | boolean> = exampleBody(feature)) {
    const parts: Parameters<typeof multipart>[0] = [];
    for (const file of feature.inputs.files) {
      if (!file.required) continue;
      for (let index = 0; index < file.minCount; index += 1) {
        parts.push(
          file.kind === "audio"
            ? { name: file.name, value: makeWav(1), filename: "speech.wav", contentType: "audio/wav" }
            : { name: file.name, value: TINY_PNG, filename: `${file.name}.png`, contentType: "image/png" },
        );
      }
    }
    for (const [name, value] of Object.entries(body)) parts.push({ name, value: String(value) });
    return parts;
  }

  function featureCall(
    feature: Feature,
    options: {
      apiKey?: string | null;
      headers?: Record<string, string>;
      body?: Record<string, string | number | boolean>;
    } = {},
  ) {
    const form = multipart(partsOf(feature, options.body));
    const apiKey = options.apiKey === undefined ? key : options.apiKey;
    return call("POST", feature.endpoint, {
      headers: {
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        "content-type": form.contentType,
        ...options.headers,
      },
      payload: form.payload,
    });
  }

  it("answers every feature as documented, synchronously and with Prefer: respond-async", async () => {
    const training = await featureCall(pegasusTrainingFeature);
    expect(training.statusCode, training.body).toBe(200);
    const trainingId: string = training.json().request.id;
    const identityId: string = training.json().request.response_data.body.identityId;
    for (const feature of FEATURES) {
      const body = exampleBody(feature);
      const headers: Record<string, string> = {};
      if ("identity_id" in body || feature.inputs.body.some((field) => field.name === "identity_id")) {
        body.identity_id = identityId;
        for (const header of feature.headers) headers[header.name] = trainingId;
      }
      const answer = await featureCall(feature, { body, headers });
      // The clone's training is followed by a job this test does not run: 409 identity-not-ready.
      expect([200, 409], `${feature.id}: ${answer.body}`).toContain(answer.statusCode);
      const queued = await featureCall(feature, { body, headers: { ...headers, prefer: "respond-async" } });
      expect([202, 409], `${feature.id}: ${queued.body}`).toContain(queued.statusCode);
    }
  }, 120_000);

  it("answers the refusals as documented", async () => {
    const removal = FEATURES.find((feature) => feature.id === "image-background-removal")!;
    expect((await featureCall(removal, { apiKey: null })).statusCode).toBe(401);
    expect((await featureCall(removal, { apiKey: "psk_not-a-key" })).statusCode).toBe(401);
    const poor = await fundedAccount(testApp, 0n);
    expect((await featureCall(removal, { apiKey: (await poor.createKey()).content })).statusCode).toBe(402);
    const account = await fundedAccount(testApp, 1_000_000_000n);
    const limited = await account.createKey(limitsWith({ endpoints: ["/v1/images/upscaling"] }));
    expect((await featureCall(removal, { apiKey: limited.content })).statusCode).toBe(403);
    const slow = await account.createKey(limitsWith({ requestsPerMinute: 1 }), "slow");
    await featureCall(removal, { apiKey: slow.content });
    expect((await featureCall(removal, { apiKey: slow.content })).statusCode).toBe(429);

    const generation = FEATURES.find((feature) => feature.id === "image-generation")!;
    expect((await featureCall(generation, { body: {} })).statusCode).toBe(400);
    const text = await call("POST", removal.endpoint, {
      headers: { authorization: `Bearer ${key}`, "content-type": "text/plain" },
      payload: "not multipart",
    });
    expect(text.statusCode).toBe(415);
    const garbage = multipart([
      {
        name: "image",
        value: Buffer.from("not an image at all"),
        filename: "p.png",
        contentType: "image/png",
      },
    ]);
    const unreadable = await call("POST", removal.endpoint, {
      headers: { authorization: `Bearer ${key}`, "content-type": garbage.contentType },
      payload: garbage.payload,
    });
    expect([415, 422]).toContain(unreadable.statusCode);
    const huge = multipart([
      {
        name: "image",
        value: Buffer.alloc(removal.inputs.files[0]!.maxBytes + 1024, 1),
        filename: "p.png",
        contentType: "image/png",
      },
    ]);
    const tooLarge = await call("POST", removal.endpoint, {
      headers: { authorization: `Bearer ${key}`, "content-type": huge.contentType },
      payload: huge.payload,
    });
    expect(tooLarge.statusCode).toBe(413);

    const reused = { "idempotency-key": `conformance-${Date.now()}` };
    expect((await featureCall(removal, { headers: reused })).statusCode).toBe(200);
    const other = await featureCall(generation, { headers: reused });
    expect([422]).toContain(other.statusCode);

    control.fail = true;
    try {
      expect((await featureCall(removal)).statusCode).toBe(502);
    } finally {
      control.fail = false;
    }
  }, 120_000);

  it("answers following, canceling, files, usage and the AI Clones list as documented", async () => {
    const removal = FEATURES.find((feature) => feature.id === "image-background-removal")!;
    const done = await featureCall(removal);
    expect(done.statusCode).toBe(200);
    const id: string = done.json().request.id;
    const auth = { authorization: `Bearer ${key}` };
    expect((await call("GET", `/v1/requests/${id}`, { headers: auth })).statusCode).toBe(200);
    expect(
      (await call("GET", "/v1/requests/00000000-0000-4000-8000-000000000000", { headers: auth })).statusCode,
    ).toBe(404);
    expect((await call("GET", `/v1/requests/${id}`)).statusCode).toBe(401);
    expect((await call("POST", `/v1/requests/${id}/cancel`, { headers: auth })).statusCode).toBe(409);
    expect(
      (await call("POST", "/v1/requests/00000000-0000-4000-8000-000000000000/cancel", { headers: auth }))
        .statusCode,
    ).toBe(404);
    const queued = await featureCall(removal, { headers: { prefer: "respond-async" } });
    expect(queued.statusCode).toBe(202);
    const canceled = await call("POST", `/v1/requests/${queued.json().id}/cancel`, { headers: auth });
    expect([200, 409]).toContain(canceled.statusCode);

    const file: string = done.json().request.response_data.file;
    const path = file.replace(/^https?:\/\/[^/]+/, "");
    expect((await call("GET", path, { headers: auth })).statusCode).toBe(200);
    expect((await call("GET", `${path}x`, { headers: auth })).statusCode).toBe(404);

    const usage = `${USAGE_PATH}?start=2026-01-01&end=2026-01-31&group_by=feature`;
    expect((await call("GET", usage, { headers: auth })).statusCode).toBe(200);
    expect(
      (await call("GET", `${USAGE_PATH}?start=nope&end=2026-01-31&group_by=feature`, { headers: auth }))
        .statusCode,
    ).toBe(400);

    const list = await call("POST", calls.playground.getTrainedIdentities.path, {
      headers: { ...auth, "content-type": JSON_TYPE },
      payload: { projectId, offset: 0 },
    });
    expect(list.statusCode, list.body).toBe(200);
    const elsewhere = await call("POST", calls.playground.getTrainedIdentities.path, {
      headers: { ...auth, "content-type": JSON_TYPE },
      payload: { projectId: "00000000-0000-4000-8000-000000000000", offset: 0 },
    });
    expect(elsewhere.statusCode).toBe(404);
  }, 120_000);

  it("reached every operation of the document", () => {
    const operations = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
    );
    expect([...seen.keys()].sort()).toEqual(operations.sort());
  });
});
