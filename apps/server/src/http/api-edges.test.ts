import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { methodNotAllowedText } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { multipart } from "../../test/images";
import { TINY_PNG } from "../../test/key-fixtures";
import { createTestApp, type TestApp } from "../../test/test-app";

/**
 * The server's edges as standard clients meet them (issue 30): a wrong method is 405 with Allow, every
 * 401 carries a Bearer challenge, and a path that is clearly an API call answers a JSON 404 even with
 * the console built and served beside the API.
 */

const INDEX_HTML = "<!doctype html><title>Prism</title><div id=root></div>";
const REQUEST_ID = "0b9f6c1e-8d1a-4c63-9a53-8f1de1d0c9a1";

describe("the API's edges", () => {
  let testApp: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), "prism-web-"));
    writeFileSync(join(webDir, "index.html"), INDEX_HTML);
    testApp = await createTestApp({ WEB_DIST_DIR: webDir });
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  describe("a method the path does not take", () => {
    it.each([
      ["GET", "/v1/images/generation", ["POST"]],
      ["GET", "/v1/users/me", ["POST"]],
      ["PUT", "/v1/users/api-keys/list", ["POST"]],
      ["DELETE", `/v1/requests/${REQUEST_ID}`, ["GET", "HEAD"]],
      ["GET", `/v1/requests/${REQUEST_ID}/cancel`, ["POST"]],
      ["POST", "/healthz", ["GET", "HEAD"]],
    ])("%s %s answers 405 with Allow", async (method, url, allowed) => {
      const response = await testApp.app.inject({ method: method as "GET", url });
      expect(response.statusCode, response.body).toBe(405);
      expect(response.headers.allow).toBe(allowed.join(", "));
      expect(response.headers["content-type"]).toContain("application/json");
      expect(response.json()).toMatchObject({
        error: "method-not-allowed",
        message: methodNotAllowedText(method, url, allowed),
      });
    });
  });

  describe("unknown paths", () => {
    it.each([
      "/api/v1/images/generation",
      "/api",
      "/v2/images/generation",
      "/v1/images/does-not-exist",
      "/v1",
    ])("GET %s answers a JSON 404, not the console's page", async (url) => {
      const response = await testApp.app.inject({ method: "GET", url });
      expect(response.statusCode, response.body).toBe(404);
      expect(response.headers["content-type"]).toContain("application/json");
      expect(response.json()).toMatchObject({ error: "route-not-found" });
    });

    it("answers a JSON 404 to a caller sending an API key, whatever the path", async () => {
      const response = await testApp.app.inject({
        method: "GET",
        url: "/images/generation",
        headers: { authorization: "Bearer prism_anything" },
      });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: "route-not-found" });
    });

    it("still serves the console's page on its own routes", async () => {
      for (const url of ["/home", "/organization/members", "/apiary"]) {
        const response = await testApp.app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(200);
        expect(response.body).toBe(INDEX_HTML);
      }
    });
  });

  describe("every 401 names the Bearer scheme", () => {
    it("on a feature call with a key that is not valid: invalid_token", async () => {
      const body = multipart([
        { name: "image", value: TINY_PNG, filename: "p.png", contentType: "image/png" },
      ]);
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/images/background-removal",
        headers: { authorization: "Bearer prism_NotAKey", "content-type": body.contentType },
        payload: body.payload,
      });
      expect(response.statusCode).toBe(401);
      expect(response.json().error).toBe("invalid-api-key");
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="prism", error="invalid_token"');
    });

    it("on a feature call and an API read with no credentials", async () => {
      for (const request of [
        { method: "POST" as const, url: "/v1/images/background-removal" },
        { method: "GET" as const, url: "/v1/usage" },
        { method: "GET" as const, url: `/v1/requests/${REQUEST_ID}` },
      ]) {
        const response = await testApp.app.inject(request);
        expect(response.statusCode, request.url).toBe(401);
        expect(response.headers["www-authenticate"], request.url).toBe('Bearer realm="prism"');
      }
    });

    it("on a console call without a session", async () => {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: { origin: "http://localhost:80" },
      });
      expect(response.statusCode).toBe(401);
      expect(response.headers["www-authenticate"]).toBe('Bearer realm="prism"');
    });
  });
});
