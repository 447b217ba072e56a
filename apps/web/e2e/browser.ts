import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { resolve } from "node:path";
import { chromiumPath } from "@prism/test-support/chromium";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { journeyServers } from "./journey-servers";

/** Screenshots of every journey land here. */
export const SCREENSHOT_DIR = resolve(import.meta.dirname, "../../../test-results/e2e-screenshots");
/** Where failed journeys' reports gather (journey-servers.ts), for CI to print at the end of its output. */
export const FAILURE_REPORTS = resolve(SCREENSHOT_DIR, "../e2e-failures.log");

/**
 * Whether the journeys save their screenshots: yes unless `E2E_SCREENSHOTS=off`. CI turns them off:
 * nobody looks at its copies, and encoding a full-page PNG at each step was about a tenth of the
 * journeys' CPU (issue 28). No assertion reads a screenshot, so the journeys check the same either way.
 */
export const SCREENSHOTS_ON = process.env.E2E_SCREENSHOTS !== "off";

export interface BrowserSession {
  baseUrl: string;
  context: BrowserContext;
  page: Page;
  /** Saves a screenshot of the whole page, or of the visible screen only (open menus and drawers). */
  screenshot(name: string, options?: { fullPage?: boolean }): Promise<void>;
  close(): Promise<void>;
}

/** The desktop size the journeys use unless told otherwise. */
export const DESKTOP_VIEWPORT = { width: 1440, height: 900 } as const;
/** A common phone (iPhone 12–15 in CSS pixels), for the phone passes of the journeys. */
export const PHONE_VIEWPORT = { width: 390, height: 844 } as const;

export interface BrowserOptions {
  /** Emulates a phone: 390×844, touch, and the page's meta viewport honoured. */
  phone?: boolean;
  /** Another console server than the file's (a journey's own deployment). */
  baseUrl?: string;
}

/**
 * Launches Debian's headless Chromium (or CHROMIUM_PATH, see @prism/test-support/chromium) with a fresh profile directory. The flags keep it from
 * reaching out to Google's services, which this machine's closed network would refuse.
 */
export async function openBrowser(options: BrowserOptions = {}): Promise<BrowserSession> {
  const baseUrl = options.baseUrl ?? (await journeyServers()).baseUrl;
  const userDataDir = mkdtempSync(resolve(tmpdir(), "prism-chromium-"));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--no-first-run",
    ],
    baseURL: baseUrl,
    ...(options.phone
      ? { viewport: PHONE_VIEWPORT, isMobile: true, hasTouch: true, deviceScaleFactor: 2 }
      : { viewport: DESKTOP_VIEWPORT }),
  });
  const page = context.pages()[0] ?? (await context.newPage());
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const events = recordPageEvents(page);
  const session: BrowserSession = {
    baseUrl,
    context,
    page,
    screenshot: async (name, { fullPage = true } = {}) => {
      if (!SCREENSHOTS_ON) return;
      await page.screenshot({ path: resolve(SCREENSHOT_DIR, `${name}.png`), fullPage });
    },
    close: async () => {
      openSessions.delete(session);
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
  openSessions.set(session, events);
  return session;
}

/** The browsers of the running file, each with what its page did lately (for a failed test's report). */
const openSessions = new Map<BrowserSession, string[]>();
const KEPT_EVENTS = 60;
/** A request slower than this is among a page's recorded events (the console's calls have budgets of 5–30 s). */
const SLOW_REQUEST_MS = 2_000;

/**
 * Keeps the page's last navigations, failed, refused and slow requests, console errors and uncaught errors:
 * a journey that fails on a loaded machine then says what the page went through, which its error alone
 * (a locator that timed out) does not.
 */
function recordPageEvents(page: Page): string[] {
  const events: string[] = [];
  const started = Date.now();
  const record = (event: string) => {
    events.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${event}`);
    if (events.length > KEPT_EVENTS) events.shift();
  };
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame()) record(`navigated to ${frame.url()}`);
  });
  page.on("pageerror", (error) => record(`uncaught ${error.name}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" || message.type() === "warning")
      record(`console ${message.type()}: ${message.text()}`);
  });
  page.on("requestfailed", (request) =>
    record(`${request.method()} ${request.url()} failed: ${request.failure()?.errorText ?? "?"}`),
  );
  page.on("requestfinished", (request) => {
    const took = request.timing().responseEnd;
    if (took > SLOW_REQUEST_MS) record(`${request.method()} ${request.url()} took ${Math.round(took)} ms`);
  });
  page.on("response", (response) => {
    if (response.status() >= 400)
      record(`${response.request().method()} ${response.url()} → ${response.status()}`);
  });
  return events;
}

/**
 * What each open browser shows and went through: its address, the open dialogs' text and the page's
 * recent events. Printed when a journey fails (journey-servers.ts); CI keeps no screenshots.
 */
export async function describeOpenBrowsers(): Promise<string> {
  const reports: string[] = [];
  for (const [session, events] of openSessions) {
    const { page } = session;
    const shown = await page
      .evaluate(async () => {
        const dialogs = Array.from(document.querySelectorAll("[role=dialog], [role=alertdialog]"));
        const text = (element: Element) => (element as HTMLElement).innerText.replace(/\s+/g, " ").trim();
        // A dialog half-way through its closing transition is still in the page: its opacity tells.
        const shown =
          dialogs.length > 0
            ? dialogs
                .map(
                  (dialog) =>
                    `dialog (opacity ${getComputedStyle(dialog).opacity}): ${text(dialog).slice(0, 300)}`,
                )
                .join("\n")
            : `no dialog; page: ${text(document.body).slice(0, 500)}`;
        // Playwright's "stable" check and Mantine's transitions both wait on animation frames: a page that
        // has stopped painting holds every click and every dialog where it is.
        const painting = await new Promise<string>((resolve) => {
          requestAnimationFrame(() => resolve("painting"));
          setTimeout(() => resolve("NOT painting (no animation frame within 2 s)"), 2_000);
        });
        return `${shown}\nthe page is ${document.visibilityState} and ${painting}`;
      })
      .catch((error: unknown) => `(the page could not be read: ${String(error)})`);
    reports.push(`browser at ${page.url()}\n${shown}\nits last events:\n${events.join("\n") || "(none)"}`);
  }
  return reports.join("\n\n");
}

/**
 * Marks the welcome popup as seen in the browser's local storage, so it does not cover the screens a
 * journey opens next. Local storage needs a page of the console's origin, hence the visit to /terms.
 */
export async function skipWelcomePopup(page: Page): Promise<void> {
  await page.goto("/terms");
  await page.evaluate(() => localStorage.setItem("welcomePopupSeen", "true"));
}
