// The console's weight in a browser: starts the already-built server (apps/server/dist, apps/web/dist;
// this script builds nothing) on a fresh data directory, opens /login, /home (a new owner signed up
// through the development mailbox) and one playground page in Chromium with an empty cache each, and
// prints the JavaScript and CSS bytes transferred (as sent, so compressed when the server compresses)
// and the load time. Exits non-zero when /login exceeds its budget: the bytes are deterministic for a
// given build, so CI runs this as a check of the bundle (the times are printed, never judged).
//
//   node bench/web.mjs            (CHROMIUM_PATH overrides /usr/bin/chromium-headless-shell; VERBOSE=1 lists every file)
import { spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { chromium } from "playwright-core";
import { chromiumPath } from "../packages/test-support/src/chromium.mjs";

/**
 * Issue 16's goal for the first page a visitor sees, compressed: 150 KB of JavaScript, 40 KB of CSS,
 * and the budget CI holds /login to. It is met (147.6 KB) by what the sign-in page does not load: the
 * zod schemas (the client is bound to the zod-free `callRoutes`; the server parses every answer),
 * the feature catalog (one playground route), the modals' provider (the signed-in shell's), the toast
 * container and the loading overlay (mounted when first shown) and the account steps other than
 * signing in (each its own chunk). React with React Router is 85 KB of it (docs/benchmarks.md).
 */
const LOGIN_BUDGET = { js: 150 * 1024, css: 40 * 1024 };

const root = resolve(import.meta.dirname, "..");
const serverEntry = resolve(root, "apps/server/dist/main.js");
const webIndex = resolve(root, "apps/web/dist/index.html");

async function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}

async function startServer() {
  const port = await freePort();
  const dataDir = mkdtempSync(resolve(tmpdir(), "prism-bench-web-"));
  const env = { ...process.env, PORT: String(port), HOST: "127.0.0.1", DATA_DIR: dataDir };
  // The bench's own deployment: the development mailbox, PGlite, nothing from the developer's shell.
  Object.assign(env, { APP_ENV: "test", LOG_LEVEL: "warn", BUILTIN_ENGINE: "off" });
  for (const name of ["DATABASE_URL", "MODEL_SERVER_URL", "MODEL_SERVER_FEATURES", "OPENAI_API_KEY"])
    delete env[name];
  const child = spawn(process.execPath, [serverEntry], {
    cwd: dataDir,
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  const baseUrl = `http://127.0.0.1:${port}`;
  const startedAt = performance.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${baseUrl}/healthz`)).ok) break;
    } catch {
      // Not listening yet.
    }
    if (performance.now() - startedAt > 60_000) throw new Error("the server did not become healthy in 60 s");
    await new Promise((done) => setTimeout(done, 50));
  }
  return {
    baseUrl,
    close: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((done) => child.once("exit", done));
        child.kill("SIGTERM");
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function post(context, baseUrl, path, data) {
  const response = await context.request.post(`${baseUrl}${path}`, { data, headers: { origin: baseUrl } });
  if (!response.ok()) throw new Error(`POST ${path} answered ${response.status()}: ${await response.text()}`);
  return response.json().catch(() => ({}));
}

/** Signs a new owner up in `context` with the code from the development mailbox. */
async function signUp(context, baseUrl) {
  const email = `bench-web-${Date.now()}@example.com`;
  await post(context, baseUrl, "/v1/users/create", {
    firstName: "Ada",
    lastName: "Lovelace",
    email,
    password: "Sup3r-secret!",
  });
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const mails = await (await fetch(`${baseUrl}/dev/mailbox`)).json();
    const code = mails
      .filter((mail) => mail.to === email)
      .map((mail) => /\b(\d{6})\b/.exec(mail.text)?.[1])[0];
    if (code) {
      await post(context, baseUrl, "/v1/users/confirm", { email, verificationCode: code });
      return;
    }
    await new Promise((done) => setTimeout(done, 100));
  }
  throw new Error("no verification mail arrived");
}

/** Opens `path` in a fresh page and sums the bodies of its scripts and style sheets as transferred. */
async function measure(context, baseUrl, path, readySelector) {
  const page = await context.newPage();
  const requests = [];
  page.on("requestfinished", (request) => requests.push(request));
  const startedAt = performance.now();
  await page.goto(`${baseUrl}${path}`, { waitUntil: "load" });
  await page.locator(readySelector).first().waitFor({ state: "visible", timeout: 30_000 });
  await page.waitForLoadState("networkidle");
  const readyMs = performance.now() - startedAt;
  const totals = { js: 0, css: 0, jsFiles: 0, cssFiles: 0, encodings: new Set() };
  for (const request of requests) {
    const kind =
      request.resourceType() === "script" ? "js" : request.resourceType() === "stylesheet" ? "css" : "";
    if (!kind) continue;
    const response = await request.response();
    const sizes = await request.sizes();
    totals[kind] += sizes.responseBodySize;
    totals[`${kind}Files`] += 1;
    totals.encodings.add((await response?.headerValue("content-encoding")) ?? "identity");
    if (process.env.VERBOSE) console.log(`${path}\t${sizes.responseBodySize}\t${request.url()}`);
  }
  await page.close();
  return { path, ...totals, readyMs };
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} KB`;
}

async function main() {
  if (!existsSync(serverEntry) || !existsSync(webIndex))
    throw new Error("the app is not built: run `npm run build` first (this bench builds nothing)");
  const server = await startServer();
  let browser;
  try {
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      headless: true,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
      ],
    });
    const results = [];
    // A new context per page: an empty cache, as a first visit.
    const signedOut = await browser.newContext();
    results.push(await measure(signedOut, server.baseUrl, "/login", "input[type=password]"));
    await signedOut.close();

    for (const [path, selector] of [
      ["/home", "main"],
      ["/playground/object-removal", "main"],
    ]) {
      const signedIn = await browser.newContext();
      await signedIn.addInitScript(() => localStorage.setItem("welcomePopupSeen", "true"));
      await signUp(signedIn, server.baseUrl);
      results.push(await measure(signedIn, server.baseUrl, path, selector));
      await signedIn.close();
    }

    console.log(
      "\npage                          JS (files)             CSS (files)          encodings       ready",
    );
    for (const r of results) {
      console.log(
        `${r.path.padEnd(30)}${`${kb(r.js)} (${r.jsFiles})`.padEnd(23)}${`${kb(r.css)} (${r.cssFiles})`.padEnd(21)}` +
          `${[...r.encodings].join(",").padEnd(16)}${Math.round(r.readyMs)} ms`,
      );
    }
    const login = results[0];
    const over = [];
    if (login.js > LOGIN_BUDGET.js) over.push(`JS ${kb(login.js)} > ${kb(LOGIN_BUDGET.js)}`);
    if (login.css > LOGIN_BUDGET.css) over.push(`CSS ${kb(login.css)} > ${kb(LOGIN_BUDGET.css)}`);
    if (over.length > 0) {
      console.error(`\n/login is over its budget: ${over.join("; ")}`);
      process.exitCode = 1;
    } else {
      console.log(
        `\n/login is within its budget (JS ≤ ${kb(LOGIN_BUDGET.js)}, CSS ≤ ${kb(LOGIN_BUDGET.css)}).`,
      );
    }
  } finally {
    await browser?.close();
    await server.close();
  }
}

await main();
