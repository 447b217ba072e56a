import type { ApiKeyLimits } from "@prism/contract";
import { NO_API_KEY_LIMITS } from "@prism/contract";
import { eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import sharp from "sharp";
import { expect } from "vitest";
import { featureRequests } from "../src/db/schema";
import { credit } from "../src/modules/ledger/ledger.service";
import { post, signUpAndConfirm } from "./accounts";
import { multipart } from "./images";
import { type LocalServer, sendJson, startLocalServer } from "./local-http-server";
import type { TestApp } from "./test-app";

/** Limits with only the given ones set. */
export function limitsWith(overrides: Partial<ApiKeyLimits>): ApiKeyLimits {
  return { ...NO_API_KEY_LIMITS, ...overrides };
}

export const TINY_PNG = await sharp({
  create: { width: 8, height: 8, channels: 3, background: "#204060" },
})
  .png()
  .toBuffer();

/**
 * A model server (docs/model-server.md) that removes backgrounds and generates images at once,
 * optionally after `delayMs` (so concurrent calls overlap), or fails every call while `fail` is set.
 */
export function startImageModelServer(
  control: { delayMs: number; fail?: boolean } = { delayMs: 0 },
): Promise<LocalServer> {
  return startLocalServer((request, response) => {
    if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, { ok: true });
    if (request.method === "POST" && control.fail)
      return sendJson(response, 500, { message: "model crashed" });
    if (
      request.method === "POST" &&
      ["/image-background-removal", "/image-generation"].includes(request.path)
    ) {
      setTimeout(() => {
        response.writeHead(200, { "content-type": "image/png" });
        response.end(TINY_PNG);
      }, control.delayMs);
      return;
    }
    sendJson(response, 404, { message: "unknown feature" });
  });
}

/** The env that serves background removal and image generation from `model`. */
export function imageModelEnv(model: LocalServer): Record<string, string> {
  return {
    MODEL_SERVER_URL: model.url,
    MODEL_SERVER_FEATURES: "image-generation,image-background-removal",
    PROVIDER_TIMEOUT_MS: "20000",
  };
}

/** An organization with `fundsMicros` on its balance, and a way to make keys of its project. */
export async function fundedAccount(testApp: TestApp, fundsMicros: bigint) {
  const owner = await signUpAndConfirm(testApp);
  const organizationId: string = owner.userInfo.organizations[0].id;
  const projectId: string = owner.userInfo.organizations[0].projects[0].id;
  if (fundsMicros > 0n) {
    await testApp.database.db.transaction((tx) =>
      credit(tx, { organizationId, amountMicros: fundsMicros, reference: `grant-${organizationId}` }),
    );
  }
  const createKey = async (limits?: ApiKeyLimits, apiKeyName = "limited") => {
    const response = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId, apiKeyName, ...(limits ? { limits } : {}) },
      { session: owner.session },
    );
    expect(response.statusCode, response.body).toBe(200);
    return response.json().apiKey as { id: string; content: string };
  };
  const requestRows = () =>
    testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.organizationId, organizationId));
  return { owner, organizationId, projectId, createKey, requestRows };
}

/** A background removal with `apiKey`, as curl sends it. */
export function removeBackground(
  testApp: TestApp,
  apiKey: string,
  options: { headers?: Record<string, string>; remoteAddress?: string; image?: Buffer } = {},
) {
  return callFeature(
    testApp,
    apiKey,
    "/v1/images/background-removal",
    [{ name: "image", value: options.image ?? TINY_PNG, filename: "p.png", contentType: "image/png" }],
    options,
  );
}

export function callFeature(
  testApp: TestApp,
  apiKey: string,
  endpoint: string,
  parts: Parameters<typeof multipart>[0],
  options: { headers?: Record<string, string>; remoteAddress?: string } = {},
) {
  const body = multipart(parts);
  const request: InjectOptions = {
    method: "POST",
    url: endpoint,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType, ...options.headers },
    payload: body.payload,
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  };
  return testApp.app.inject(request);
}

/**
 * A call whose body could not even be parsed (not multipart): a refusal it gets instead of 415 was
 * decided from the headers, before the body was read.
 */
export function callWithUnreadableBody(
  testApp: TestApp,
  apiKey: string,
  endpoint: string,
  options: { remoteAddress?: string; headers?: Record<string, string> } = {},
) {
  return testApp.app.inject({
    method: "POST",
    url: endpoint,
    headers: { authorization: `Bearer ${apiKey}`, "content-type": "text/plain", ...options.headers },
    payload: "not a multipart body",
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}
