import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";
import { COMPRESS_THRESHOLD_BYTES } from "./compression";

const BIG_SCRIPT = `${"console.log('a large script');\n".repeat(400)}`;
const BIG_IMAGE = Buffer.alloc(20_000, 7);
const INDEX_HTML = `<!doctype html><title>Prism</title><div id=root></div>`;

describe("compression of dynamic answers", () => {
  let testApp: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), "prism-web-"));
    mkdirSync(join(webDir, "assets"));
    writeFileSync(join(webDir, "index.html"), INDEX_HTML);
    writeFileSync(join(webDir, "assets", "app-abc123.js"), BIG_SCRIPT);
    writeFileSync(join(webDir, "assets", "app-abc123.js.br"), brotliCompressSync(BIG_SCRIPT));
    writeFileSync(join(webDir, "assets", "app-abc123.js.gz"), gzipSync(BIG_SCRIPT));
    writeFileSync(join(webDir, "assets", "picture-abc123.png"), BIG_IMAGE);
    testApp = await createTestApp({ WEB_DIST_DIR: webDir });
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  it("compresses a large JSON answer with brotli or gzip, as the client accepts, and says it varies", async () => {
    const plain = await testApp.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(plain.statusCode).toBe(200);
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_THRESHOLD_BYTES);

    const br = await testApp.app.inject({
      method: "GET",
      url: "/v1/openapi.json",
      headers: { "accept-encoding": "gzip, deflate, br" },
    });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers.vary).toContain("accept-encoding");
    expect(br.rawPayload.length).toBeLessThan(plain.rawPayload.length / 3);
    expect(JSON.parse(brotliDecompressSync(br.rawPayload).toString("utf8"))).toEqual(plain.json());

    const gzip = await testApp.app.inject({
      method: "GET",
      url: "/v1/openapi.json",
      headers: { "accept-encoding": "gzip" },
    });
    expect(gzip.headers["content-encoding"]).toBe("gzip");
    expect(JSON.parse(gunzipSync(gzip.rawPayload).toString("utf8"))).toEqual(plain.json());
  });

  it("sends a small JSON answer as it is", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: "/healthz",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.rawPayload.length).toBeLessThan(COMPRESS_THRESHOLD_BYTES);
    expect(response.headers["content-encoding"]).toBeUndefined();
  });

  it("leaves the build's precompressed files and images as they are", async () => {
    const script = await testApp.app.inject({
      method: "GET",
      url: "/assets/app-abc123.js",
      headers: { "accept-encoding": "br" },
    });
    expect(script.headers["content-encoding"]).toBe("br");
    // The build's own copy, not compressed a second time.
    expect(brotliDecompressSync(script.rawPayload).toString("utf8")).toBe(BIG_SCRIPT);

    const image = await testApp.app.inject({
      method: "GET",
      url: "/assets/picture-abc123.png",
      headers: { "accept-encoding": "br, gzip" },
    });
    expect(image.statusCode).toBe(200);
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.rawPayload.equals(BIG_IMAGE)).toBe(true);
  });

  it("does not inflate a compressed request body", async () => {
    const body = gzipSync(JSON.stringify({ email: "someone@example.com", password: "whatever-1A" }));
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/users/login",
      headers: { "content-type": "application/json", "content-encoding": "gzip", origin: "http://localhost" },
      payload: body,
    });
    // Read as sent (not JSON), so refused as a bad body, not taken for a sign-in attempt.
    expect(response.statusCode).toBe(400);
  });
});
