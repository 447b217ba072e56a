import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import {
  type BodyField,
  calls,
  FEATURES,
  type FileInput,
  featureCallResponse,
  getTrainedIdentitiesResponse,
  REQUEST_DETAIL_PATH,
  requestDetailSchema,
  statusOf,
  trainingResultSchema,
  transcriptionResultSchema,
  USAGE_GROUPS,
  USAGE_PATH,
  usageResponse,
  WEBHOOK_EVENT_TYPES,
} from "@prism/contract";
import { validate } from "@scalar/openapi-parser";
import Fastify from "fastify";
import { describe, expect, it } from "vitest";
import { SERVER_ROOT } from "../../paths";
import { buildOpenApiDocument } from "./document";
import { errorStatusesOf, FEATURE_CALL_ERROR_CODES, STATUS_MEANINGS } from "./errors";
import { NON_PRODUCTION_NOTE } from "./fields";
import { REFERENCE_SCRIPT_PATH, registerOpenApiRoutes, SCALAR_SCRIPT_PATH } from "./openapi.routes";
import { FILE_CONTENT_TYPES, FILE_ROUTE } from "./operations/files";
import { usd } from "./tags";
import { ERROR_SCHEMA_REF, type JsonObject } from "./types";

const doc = buildOpenApiDocument();

function resolveRef(ref: string): JsonObject {
  const found = ref
    .replace(/^#\//, "")
    .split("/")
    .reduce<unknown>((node, key) => (node as JsonObject | undefined)?.[key], doc);
  if (!found) throw new Error(`Unresolved $ref ${ref}`);
  return found as JsonObject;
}

function allRefs(value: unknown, found: string[] = []): string[] {
  if (Array.isArray(value)) {
    for (const item of value) allRefs(item, found);
  } else if (typeof value === "object" && value !== null) {
    for (const [key, inner] of Object.entries(value)) {
      if (key === "$ref" && typeof inner === "string") found.push(inner);
      else allRefs(inner, found);
    }
  }
  return found;
}

describe("OpenAPI document", () => {
  it("is an OpenAPI 3.1 document with bearer API keys", () => {
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info.title).toBe("Prism API");
    // Absolute, so a generated client needs no base URL of its own (issue 30 item 3).
    expect(doc.servers).toEqual([{ url: "http://localhost:3000", description: "This deployment." }]);
    expect(buildOpenApiDocument({ baseUrl: "https://console.acme.test/" }).servers[0]?.url).toBe(
      "https://console.acme.test",
    );
    expect(doc.info.license).toEqual({ name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" });
    expect(doc.components.securitySchemes.apiKey).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.info.description).toContain("Authorization: Bearer psk_...");
    expect(JSON.parse(JSON.stringify(doc))).toEqual(doc);
  });

  it("passes the OpenAPI validator of Scalar, the reference page's own parser", async () => {
    const result = await validate(structuredClone(doc));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it("resolves every $ref", () => {
    const refs = allRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(() => resolveRef(ref)).not.toThrow();
  });

  it("has one POST per catalog feature with every file, field and header", () => {
    const featurePaths = Object.keys(doc.paths).filter((path) => {
      const post = doc.paths[path]!.post;
      return post !== undefined && "x-prism-feature" in post;
    });
    expect(featurePaths.sort()).toEqual(FEATURES.map((feature) => feature.endpoint).sort());
    expect(Object.keys(doc.paths)).toContain(FILE_ROUTE);
    const tagNames = doc.tags.map((tag) => tag.name);
    for (const feature of FEATURES) {
      const operation = doc.paths[feature.endpoint]!.post as JsonObject & {
        tags: string[];
        parameters: JsonObject[];
        requestBody: {
          content: Record<
            string,
            { schema: { properties: Record<string, JsonObject>; required?: string[] } }
          >;
        };
      };
      expect(operation.summary).toBe(feature.name);
      expect(operation.tags).toHaveLength(1);
      expect(tagNames).toContain(operation.tags[0]);
      const schema = operation.requestBody.content["multipart/form-data"]!.schema;
      const files: readonly FileInput[] = feature.inputs.files;
      const fields: readonly BodyField[] = feature.inputs.body;
      expect(Object.keys(schema.properties).sort()).toEqual(
        [
          ...files.map((file) => file.name),
          ...fields.map((field) => field.name),
          // Every call's own options (issue 29): a per-call webhook and its events.
          "webhook",
          "webhook_events_filter",
        ].sort(),
      );
      expect([...(schema.required ?? [])].sort()).toEqual(
        [...files, ...fields]
          .filter((input) => input.required)
          .map((input) => input.name)
          .sort(),
      );
      for (const file of files) {
        const property = schema.properties[file.name]!;
        if (file.maxCount > 1) {
          expect(property).toMatchObject({
            type: "array",
            items: { type: "string", format: "binary" },
            minItems: file.minCount,
            maxItems: file.maxCount,
          });
        } else {
          expect(property).toMatchObject({ type: "string", format: "binary" });
        }
      }
      for (const field of fields) {
        const property = schema.properties[field.name]!;
        expect(property.description).toBe(
          field.nonProductionOnly ? `${field.description} ${NON_PRODUCTION_NOTE}` : field.description,
        );
        const type = {
          string: "string",
          enum: "string",
          boolean: "boolean",
          number: field.integer ? "integer" : "number",
        };
        expect(property.type).toBe(type[field.type]);
        expect(property.minimum).toBe(field.min);
        expect(property.maximum).toBe(field.max);
        expect(property.maxLength).toBe(field.maxLength);
        expect(property.default).toBe(field.default);
        if (field.values) expect(property.enum).toEqual([...field.values]);
      }
      expect(
        operation.parameters
          .filter((parameter) => !("$ref" in parameter))
          .map((parameter) => [parameter.name, parameter.in, parameter.required]),
      ).toEqual(feature.headers.map((header) => [header.name, "header", header.required]));
      // Every feature call may be made idempotent.
      expect(operation.parameters).toContainEqual({ $ref: "#/components/parameters/IdempotencyKey" });
      expect(String(operation.description)).toContain(usd(feature.billing.defaultPriceMicros));
      expect(doc.info.description).toContain(feature.endpoint);
    }
  });

  it("documents keys with limits: their errors, the Idempotency-Key and RateLimit headers, the limits schema", () => {
    expect(doc.components.parameters.IdempotencyKey).toMatchObject({
      name: "Idempotency-Key",
      in: "header",
      required: false,
      schema: { maxLength: 255 },
    });
    expect(String(doc.components.parameters.IdempotencyKey?.description)).toContain("waits for it");
    expect(Object.keys(doc.components.headers).sort()).toEqual(
      [
        "Idempotent-Replayed",
        "RateLimit",
        "RateLimit-Limit",
        "RateLimit-Policy",
        "RateLimit-Remaining",
        "RateLimit-Reset",
      ].sort(),
    );
    const described = Object.values(doc.components.responses)
      .map((response) => String(response.description))
      .join(" ");
    for (const code of [
      "api-key-expired",
      "key-spend-cap-reached",
      "key-feature-not-allowed",
      "ip-not-allowed",
      "idempotency-in-progress",
      "idempotency-key-reused",
    ]) {
      expect(described).toContain(`\`${code}\``);
    }
    expect(doc.components.responses.TooManyRequests?.headers).toHaveProperty("Retry-After");
    expect(doc.components.responses.TooManyRequests?.headers).toHaveProperty("RateLimit-Remaining");
    expect(
      Object.keys((doc.components.schemas.ApiKeyLimits as { properties: object }).properties).sort(),
    ).toEqual(
      [
        "allowedIps",
        "endpoints",
        "expiresAt",
        "lifetimeSpendCap",
        "monthlySpendCap",
        "requestsPerMinute",
      ].sort(),
    );
    expect(doc.info.description).toContain("Keys with limits");
  });

  it("answers 200 with the contract's response and documents every error with the error schema", () => {
    for (const feature of FEATURES) {
      const responses = (doc.paths[feature.endpoint]!.post as { responses: Record<string, JsonObject> })
        .responses;
      const ok = responses["200"] as {
        content: { "application/json": { schema: JsonObject; example: unknown } };
      };
      expect(ok.content["application/json"].schema).toEqual({
        $ref: `#/components/schemas/${feature.id === "pegasus-training" ? "TrainingCallResponse" : feature.id === "speech-to-text" ? "TranscriptionCallResponse" : "ImageCallResponse"}`,
      });
      const example = featureCallResponse.parse(ok.content["application/json"].example);
      if (feature.id === "speech-to-text")
        transcriptionResultSchema.parse(example.request.response_data.body);
      if (feature.id === "pegasus-training") trainingResultSchema.parse(example.request.response_data.body);

      // 409 on every feature: `idempotency-in-progress` (with Retry-After) and `request-canceled`.
      const expected = [
        "202",
        "400",
        "401",
        "402",
        "403",
        "404",
        "409",
        "413",
        "415",
        "422",
        "429",
        "502",
        "503",
        "504",
      ];
      for (const status of expected) expect(responses[status], `${feature.id} ${status}`).toBeDefined();
      expect(Object.keys(responses).filter((status) => status !== "200" && status !== "202")).toEqual(
        errorStatusesOf(feature).map(String),
      );
      for (const [status, ref] of Object.entries(responses)) {
        if (status === "200" || status === "202") continue;
        const response = resolveRef(String(ref.$ref)) as {
          description: string;
          content: { "application/json": { schema: JsonObject; example: { error: string } } };
        };
        expect(response.content["application/json"].schema).toEqual({ $ref: ERROR_SCHEMA_REF });
        expect(response.description).toContain(STATUS_MEANINGS[Number(status)]!.meaning);
        expect(statusOf(response.content["application/json"].example.error as never)).toBe(Number(status));
      }
    }
    expect(resolveRef(ERROR_SCHEMA_REF)).toMatchObject({ required: ["error", "message", "requestId"] });
    expect(resolveRef("#/components/responses/Conflict")).toMatchObject({
      headers: { "Retry-After": { schema: { type: "integer" } } },
    });
    for (const code of FEATURE_CALL_ERROR_CODES) expect(STATUS_MEANINGS[statusOf(code)]).toBeDefined();
  });

  it("documents listing the project's AI Clones with an API key, the one way to learn identity ids", () => {
    const operation = doc.paths[calls.playground.getTrainedIdentities.path]?.post as
      | (JsonObject & {
          security: unknown;
          requestBody: { content: Record<string, { schema: JsonObject }> };
          responses: Record<string, JsonObject>;
          "x-codeSamples": { source: string }[];
        })
      | undefined;
    expect(operation).toBeDefined();
    expect(operation?.security).toEqual([{ apiKey: [] }]);
    expect(operation?.tags).toEqual(["AI Clones"]);
    const body = operation?.requestBody.content["application/json"]?.schema as {
      properties: Record<string, unknown>;
      required: string[];
    };
    expect(Object.keys(body.properties).sort()).toEqual(["offset", "projectId"]);
    expect(body.required).toEqual(["projectId"]);
    const ok = operation?.responses["200"] as { content: { "application/json": { example: unknown } } };
    expect(
      getTrainedIdentitiesResponse.parse(ok.content["application/json"].example).requests[0],
    ).toMatchObject({
      identity_status: "ready",
    });
    for (const status of ["401", "404"]) expect(operation?.responses[status]).toBeDefined();
    expect(operation?.["x-codeSamples"][0]?.source).toContain(calls.playground.getTrainedIdentities.path);
    expect(String(operation?.description)).toContain("identity_id");
  });

  it("shows a runnable cURL, Python and JavaScript example per endpoint, synchronous and asynchronous", () => {
    const removal = doc.paths["/v1/images/background-removal"]!.post as {
      "x-codeSamples": { label: string; source: string }[];
    };
    expect(removal["x-codeSamples"].map((sample) => sample.label)).toEqual([
      "cURL",
      "Python",
      "JavaScript",
      "TypeScript",
      "cURL (async)",
      "Python (async)",
      "JavaScript (async)",
    ]);
    expect(removal["x-codeSamples"][0]!.source).toBe(
      [
        "curl -X POST 'http://localhost:3000/v1/images/background-removal'",
        '  -H "Authorization: Bearer $PRISM_API_KEY"',
        "  -F 'image=@photo.png'",
      ].join(" \\\n"),
    );
    const inpainting = doc.paths["/v1/images/identity-inpainting"]!.post as {
      "x-codeSamples": { source: string }[];
    };
    expect(inpainting["x-codeSamples"][0]!.source).toContain(
      '-H "x-authorization-identity-request-id: $IDENTITY_REQUEST_ID"',
    );
    expect(inpainting["x-codeSamples"][0]!.source).toContain('-F "identity_id=$IDENTITY_ID"');
  });
});

describe("OpenAPI routes", () => {
  it("documents downloading a file: GET with the API key, its content types, 404 for other projects", () => {
    const operation = doc.paths[FILE_ROUTE]!.get as JsonObject & {
      security: JsonObject[];
      parameters: { name: string; in: string; required: boolean }[];
      responses: Record<string, { description: string; content: Record<string, JsonObject> }>;
      description: string;
      "x-codeSamples": { source: string }[];
    };
    expect(doc.paths[FILE_ROUTE]!.post).toBeUndefined();
    expect(operation.security).toEqual([{ apiKey: [] }]);
    expect(
      operation.parameters.map((parameter) => [parameter.name, parameter.in, parameter.required]),
    ).toEqual([
      ["organizationId", "path", true],
      ["projectId", "path", true],
      ["name", "path", true],
    ]);
    expect(Object.keys(operation.responses["200"]!.content)).toEqual([...FILE_CONTENT_TYPES]);
    expect(operation.responses["404"]!.description).toContain("another project");
    expect(operation.description).toContain("response_data.file");
    expect(operation.description).toContain("_thumb");
    expect(operation["x-codeSamples"][0]!.source).toContain('-H "Authorization: Bearer $PRISM_API_KEY"');
    expect(doc.tags.map((tag) => tag.name)).toContain("Files");
    // Every feature's answer documents its file URLs as downloadable with the key.
    expect(doc.info.description).toContain("Download a file");
  });

  it("documents one call's status and the usage API: GET with the key, examples that fit the contract", () => {
    const detail = doc.paths[REQUEST_DETAIL_PATH]!.get as JsonObject & {
      security: JsonObject[];
      parameters: { name: string; in: string }[];
      responses: Record<string, { content?: Record<string, { example: unknown }> }>;
    };
    expect(detail.security).toEqual([{ apiKey: [] }]);
    expect(detail.parameters.map((parameter) => [parameter.name, parameter.in])).toEqual([["id", "path"]]);
    expect(() =>
      requestDetailSchema.parse(detail.responses["200"]!.content!["application/json"]!.example),
    ).not.toThrow();
    expect(Object.keys(detail.responses)).toEqual(["200", "401", "404", "429"]);

    const usage = doc.paths[USAGE_PATH]!.get as JsonObject & {
      parameters: { name: string; in: string; schema: { enum?: string[] } }[];
      responses: Record<string, { content?: Record<string, { example: unknown }> }>;
    };
    expect(usage.parameters.map((parameter) => [parameter.name, parameter.in])).toEqual([
      ["start", "query"],
      ["end", "query"],
      ["group_by", "query"],
    ]);
    expect(usage.parameters[2]!.schema.enum).toEqual([...USAGE_GROUPS]);
    expect(() =>
      usageResponse.parse(usage.responses["200"]!.content!["application/json"]!.example),
    ).not.toThrow();
    expect(doc.components.schemas).toHaveProperty("RequestDetail");
    expect(doc.components.schemas).toHaveProperty("Usage");
    expect(doc.tags.map((tag) => tag.name)).toContain("Usage");
  });

  it("documents every webhook event's signed payload in the webhooks section", () => {
    const doc = buildOpenApiDocument();
    expect(Object.keys(doc.webhooks)).toEqual([
      ...WEBHOOK_EVENT_TYPES,
      "webhook.test",
      "request.started",
      "request.completed",
    ]);
    for (const [type, webhook] of Object.entries(doc.webhooks)) {
      expect(webhook.post.operationId, type).toMatch(/^[a-zA-Z]+Event$/);
    }
    const ready = doc.webhooks["training.ready"]?.post as JsonObject & {
      parameters: { name: string }[];
      requestBody: {
        content: { "application/json": { schema: { properties: Record<string, JsonObject> } } };
      };
    };
    expect(ready.parameters.map((parameter) => parameter.name)).toEqual([
      "webhook-id",
      "webhook-timestamp",
      "webhook-signature",
    ]);
    const body = ready.requestBody.content["application/json"].schema;
    expect(body.properties.type).toMatchObject({ const: "training.ready" });
    expect(body.properties.data).toMatchObject({ required: expect.arrayContaining(["identity_id"]) });
  });

  async function app() {
    const instance = Fastify({ logger: false });
    registerOpenApiRoutes(instance);
    await instance.ready();
    return instance;
  }

  it("serves the document and the reference page with its assets", async () => {
    const server = await app();
    const json = await server.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(json.statusCode).toBe(200);
    expect(json.headers["content-type"]).toMatch(/^application\/json/);
    // Served for the origin it is asked on (inject's is localhost:80).
    expect(json.json()).toEqual(buildOpenApiDocument({ baseUrl: "http://localhost:80" }));

    const page = await server.inject({ method: "GET", url: "/docs" });
    expect(page.statusCode).toBe(200);
    expect(page.headers["content-type"]).toMatch(/^text\/html/);
    expect(page.body).toContain(`<script src="${SCALAR_SCRIPT_PATH}"></script>`);
    expect(page.body).toContain(`<script src="${REFERENCE_SCRIPT_PATH}"></script>`);

    const missing = await server.inject({ method: "GET", url: "/docs/assets/nope.js" });
    expect(missing.statusCode).toBe(404);
    await server.close();
  });
});

describe("@redocly/cli lint", () => {
  /**
   * Warnings decided and accepted, each with its reason; any other warning or any error fails.
   * - ApiKeyLimits is not referenced by an operation (keys are made in the console), but the
   *   introduction's "Keys with limits" names it as the schema of a key's limits.
   */
  const ACCEPTED = ['no-unused-components: Component: "ApiKeyLimits" is never used.'];

  it("finds no error and no warning beyond the accepted ones in the document as a deployment serves it", async () => {
    const directory = mkdtempSync(join(tmpdir(), "prism-redocly-"));
    try {
      const file = join(directory, "openapi.json");
      writeFileSync(file, JSON.stringify(buildOpenApiDocument({ baseUrl: "https://console.prism-ai.dev" })));
      const cli = resolve(SERVER_ROOT, "../../node_modules/@redocly/cli/bin/cli.js");
      const { stdout } = await promisify(execFile)(process.execPath, [cli, "lint", file, "--format=json"], {
        cwd: directory,
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      }).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
      const report = JSON.parse(stdout) as {
        totals: { errors: number };
        problems: { ruleId: string; message: string }[];
      };
      expect(report.totals.errors).toBe(0);
      expect(report.problems.map((problem) => `${problem.ruleId}: ${problem.message}`)).toEqual(ACCEPTED);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  }, 60_000);
});
