import {
  MULTIPART_BOUNDARY_MISSING,
  MULTIPART_MAX_FIELD_BYTES,
  MULTIPART_MAX_FIELDS,
  MULTIPART_TRUNCATED,
  multipartFieldTooLongText,
  multipartTooManyText,
} from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fundedAccount, imageModelEnv, startImageModelServer, TINY_PNG } from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * Malformed feature calls (issue 30): a multipart body without its boundary, cut short in a field or
 * in a file, or with more or longer fields than any call takes, is the caller's mistake. Each answers
 * 400 with what is wrong (never 500 `internal-error`, never 413 for a file of three bytes), charging
 * and storing nothing.
 */

const FUNDS = 1_000_000n;
const BOUNDARY = "----prism-malformed";

describe("malformed multipart feature calls", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let account: Awaited<ReturnType<typeof fundedAccount>>;
  let apiKey: string;

  beforeAll(async () => {
    modelServer = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(modelServer));
    account = await fundedAccount(testApp, FUNDS);
    apiKey = (await account.createKey()).content;
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  function send(endpoint: string, payload: Buffer | string, contentType: string) {
    return testApp.app.inject({
      method: "POST",
      url: endpoint,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": contentType },
      payload,
    });
  }

  const field = (name: string, value: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const fileHead = (name: string) =>
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`;
  const closing = `--${BOUNDARY}--\r\n`;
  const withBoundary = `multipart/form-data; boundary=${BOUNDARY}`;

  async function expectNothingCharged() {
    expect(await account.requestRows()).toEqual([]);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(FUNDS);
  }

  it("answers 400 to multipart/form-data without a boundary", async () => {
    const response = await send(
      "/v1/images/background-removal",
      Buffer.concat([Buffer.from(fileHead("image")), TINY_PNG, Buffer.from(`\r\n${closing}`)]),
      "multipart/form-data",
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid-input", message: MULTIPART_BOUNDARY_MISSING });
    await expectNothingCharged();
  });

  it("answers 400 to a body cut short in the middle of a field", async () => {
    const response = await send(
      "/v1/images/generation",
      `${field("width", "256")}--${BOUNDARY}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\na lightho`,
      withBoundary,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid-input", message: MULTIPART_TRUNCATED });
    await expectNothingCharged();
  });

  it("answers 400, not 413, to a body cut short after a file's first three bytes", async () => {
    const response = await send(
      "/v1/images/background-removal",
      Buffer.concat([Buffer.from(fileHead("image")), TINY_PNG.subarray(0, 3)]),
      withBoundary,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({ error: "invalid-input", message: MULTIPART_TRUNCATED });
    await expectNothingCharged();
  });

  it("answers 400 to a field longer than any field takes, naming it", async () => {
    const response = await send(
      "/v1/images/generation",
      `${field("prompt", "a".repeat(MULTIPART_MAX_FIELD_BYTES + 10))}${closing}`,
      withBoundary,
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      error: "invalid-input",
      field: "prompt",
      message: multipartFieldTooLongText("prompt", MULTIPART_MAX_FIELD_BYTES),
    });
    await expectNothingCharged();
  });

  it("answers 400 to more fields than any call takes", async () => {
    const fields = Array.from({ length: MULTIPART_MAX_FIELDS + 5 }, (_, index) => field(`f${index}`, "x"));
    const response = await send("/v1/images/generation", `${fields.join("")}${closing}`, withBoundary);
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toMatchObject({
      error: "invalid-input",
      message: multipartTooManyText("fields", MULTIPART_MAX_FIELDS),
    });
    await expectNothingCharged();
  });

  it("still runs a well-formed call after all of these", async () => {
    const response = await send(
      "/v1/images/background-removal",
      Buffer.concat([Buffer.from(fileHead("image")), TINY_PNG, Buffer.from(`\r\n${closing}`)]),
      withBoundary,
    );
    expect(response.statusCode, response.body).toBe(200);
  });
});
