import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";

// A web build as `vite build` leaves it (apps/web/vite.config.ts): every text file with a `.br` and a
// `.gz` copy beside it.
const SCRIPT = `export const page = "login";\n${"console.log('the sign-in page');\n".repeat(200)}`;
const INDEX_HTML = `<!doctype html><title>Prism</title><script type="module" src="/assets/index-abc123.js"></script><div id=root></div>`;

function writeWithCompressedCopies(path: string, content: string): void {
  writeFileSync(path, content);
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content));
}

describe("the single-page app's compression", () => {
  let testApp: TestApp;
  let webDir: string;

  beforeAll(async () => {
    webDir = mkdtempSync(join(tmpdir(), "prism-web-"));
    mkdirSync(join(webDir, "assets"));
    writeWithCompressedCopies(join(webDir, "index.html"), INDEX_HTML);
    writeWithCompressedCopies(join(webDir, "assets", "index-abc123.js"), SCRIPT);
    writeFileSync(join(webDir, "assets", "tiny-abc123.js"), "x()");
    testApp = await createTestApp({ WEB_DIST_DIR: webDir });
  });

  afterAll(async () => {
    await testApp?.close();
    rmSync(webDir, { recursive: true, force: true });
  });

  /** The script /login's page loads, as a browser finds it in the page. */
  async function loginScriptPath(): Promise<string> {
    const page = await testApp.app.inject({ method: "GET", url: "/login" });
    const src = /<script type="module" src="([^"]+)"/.exec(page.body)?.[1];
    if (!src) throw new Error(`no module script in /login: ${page.body}`);
    return src;
  }

  it("sends /login's JavaScript brotli-compressed to a browser that accepts br", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: await loginScriptPath(),
      headers: { "accept-encoding": "gzip, deflate, br, zstd" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("br");
    expect(response.headers["content-type"]).toContain("javascript");
    expect(response.headers.vary).toContain("accept-encoding");
    expect(response.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    expect(Number(response.headers["content-length"])).toBeLessThan(SCRIPT.length / 10);
    expect(brotliDecompressSync(response.rawPayload).toString("utf8")).toBe(SCRIPT);
  });

  it("sends gzip to a client that accepts gzip but not br", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: await loginScriptPath(),
      headers: { "accept-encoding": "gzip" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(response.rawPayload).toString("utf8")).toBe(SCRIPT);
  });

  it("sends the plain file (identity) to a client that accepts no compression", async () => {
    for (const headers of [{}, { "accept-encoding": "identity" }]) {
      const response = await testApp.app.inject({ method: "GET", url: await loginScriptPath(), headers });
      expect(response.statusCode).toBe(200);
      expect(response.headers["content-encoding"]).toBeUndefined();
      expect(response.headers.vary).toContain("accept-encoding");
      expect(response.body).toBe(SCRIPT);
    }
  });

  it("compresses the page itself (the history fallback's index.html) and keeps it revalidated", async () => {
    const compressed = await testApp.app.inject({
      method: "GET",
      url: "/login",
      headers: { "accept-encoding": "br" },
    });
    expect(compressed.statusCode).toBe(200);
    expect(compressed.headers["content-encoding"]).toBe("br");
    expect(compressed.headers["content-type"]).toContain("text/html");
    expect(compressed.headers["cache-control"]).toBe("no-cache");
    expect(brotliDecompressSync(compressed.rawPayload).toString("utf8")).toBe(INDEX_HTML);

    const plain = await testApp.app.inject({ method: "GET", url: "/login" });
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body).toBe(INDEX_HTML);
  });

  it("falls back to the plain file when the build left no compressed copy (too small to gain)", async () => {
    const response = await testApp.app.inject({
      method: "GET",
      url: "/assets/tiny-abc123.js",
      headers: { "accept-encoding": "gzip, br" },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-encoding"]).toBeUndefined();
    expect(response.body).toBe("x()");
  });
});
