import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../test/test-app";
import { SESSION_COOKIE } from "./modules/auth/session-cookie";

describe("the HTTP foundation", () => {
  let testApp: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), "prism-web-"));
    mkdirSync(join(webDir, "assets"));
    writeFileSync(join(webDir, "index.html"), "<!doctype html><title>Prism</title><div id=root></div>");
    writeFileSync(join(webDir, "assets", "index-abc123.js"), "console.log('app')");
    testApp = await createTestApp({ WEB_DIST_DIR: webDir });
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("answers GET /healthz after checking the database", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/healthz" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: "ok", database: testApp.database.kind });
  });

  it("answers 401 in the error shape for users/me without a session", async () => {
    const response = await testApp.app.inject({ method: "POST", url: "/v1/users/me", headers: SAME_ORIGIN });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({
      error: "unauthenticated",
      message: "Please sign in to continue.",
    });
  });

  it("answers 401 for an unknown or malformed session token", async () => {
    for (const token of ["not-a-real-token", "x".repeat(500)]) {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: SAME_ORIGIN,
        cookies: { [SESSION_COOKIE]: token },
      });
      expect(response.statusCode).toBe(401);
    }
  });

  it("answers 404 in the error shape for an unknown /v1 path, whatever the method", async () => {
    for (const method of ["GET", "POST"] as const) {
      const response = await testApp.app.inject({ method, url: "/v1/no/such/call", headers: SAME_ORIGIN });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({
        error: "route-not-found",
        message: `No such endpoint: ${method} /v1/no/such/call`,
      });
    }
  });

  it("answers 400 malformed-json for a broken JSON body, never 500", async () => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/users/me",
      headers: { ...SAME_ORIGIN, "content-type": "application/json" },
      payload: '{"broken": ',
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toBe("malformed-json");
  });

  it("answers 415 in the error shape for a content type no route accepts", async () => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/users/me",
      headers: { ...SAME_ORIGIN, "content-type": "application/xml" },
      payload: "<me/>",
    });
    expect(response.statusCode).toBe(415);
    expect(response.json().error).toBe("unsupported-media-type");
  });

  it("gives every response a request id, keeping a sane incoming one", async () => {
    const fresh = await testApp.app.inject({ method: "GET", url: "/healthz" });
    expect(fresh.headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
    const kept = await testApp.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "edge-42" },
    });
    expect(kept.headers["x-request-id"]).toBe("edge-42");
    const replaced = await testApp.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "x-request-id": "bad id with spaces" },
    });
    expect(replaced.headers["x-request-id"]).not.toBe("bad id with spaces");
  });

  describe("security headers", () => {
    it("sends a CSP that allows only our own scripts", async () => {
      const response = await testApp.app.inject({ method: "GET", url: "/login" });
      const csp = String(response.headers["content-security-policy"]);
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).not.toContain("unsafe-eval");
      expect(response.headers["x-content-type-options"]).toBe("nosniff");
    });
  });

  describe("CSRF protection by origin", () => {
    const withSession = { cookies: { [SESSION_COOKIE]: "some-session" } };

    it("refuses a cookie-carrying POST from a foreign origin", async () => {
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: { origin: "https://evil.example" },
        ...withSession,
      });
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe("csrf-rejected");
    });

    it("falls back to the Referer when Origin is absent", async () => {
      const foreign = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: { referer: "https://evil.example/page" },
        ...withSession,
      });
      expect(foreign.statusCode).toBe(403);
      const own = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: { referer: "http://localhost:80/home" },
        ...withSession,
      });
      expect(own.statusCode).toBe(401);
    });

    it("refuses a cookie-carrying POST with neither Origin nor Referer", async () => {
      const response = await testApp.app.inject({ method: "POST", url: "/v1/users/me", ...withSession });
      expect(response.statusCode).toBe(403);
    });

    it("lets same-origin calls, cookie-less clients and API-key calls through to authentication", async () => {
      const sameOrigin = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: SAME_ORIGIN,
        ...withSession,
      });
      expect(sameOrigin.statusCode).toBe(401);
      const cookieless = await testApp.app.inject({ method: "POST", url: "/v1/users/me" });
      expect(cookieless.statusCode).toBe(401);
      const bearer = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/me",
        headers: { origin: "https://evil.example", authorization: "Bearer pk_test" },
      });
      expect(bearer.statusCode).toBe(401);
    });
  });

  describe("the single-page app", () => {
    it("serves index.html with no-cache for client routes (history fallback)", async () => {
      for (const url of ["/", "/home", "/organization/members?invitation=abc", "/no/such/page"]) {
        const response = await testApp.app.inject({ method: "GET", url });
        expect(response.statusCode, url).toBe(200);
        expect(response.headers["content-type"]).toContain("text/html");
        expect(response.headers["cache-control"]).toBe("no-cache");
        expect(response.body).toContain("<div id=root>");
      }
    });

    it("serves hashed assets with a year-long immutable cache", async () => {
      const response = await testApp.app.inject({ method: "GET", url: "/assets/index-abc123.js" });
      expect(response.statusCode).toBe(200);
      expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    });

    it("does not answer a missing asset with index.html", async () => {
      const response = await testApp.app.inject({ method: "GET", url: "/assets/missing-123.js" });
      expect(response.statusCode).toBe(404);
    });
  });
});
