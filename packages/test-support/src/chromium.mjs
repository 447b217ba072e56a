/**
 * The Chromium the journeys, the SDK's browser test and the bundle bench drive: Debian's
 * `chromium-headless-shell` (the same Chromium build without the browser's UI layers, which is what
 * Playwright itself runs for headless), or CHROMIUM_PATH. Issue 28 measured the journeys on it at about
 * an eighth less CPU than on the full `chromium` in headless mode, every journey passing on both.
 * Plain JavaScript so scripts/ensure-system-packages.mjs and bench/web.mjs read the same default.
 */
export const DEFAULT_CHROMIUM_PATH = "/usr/bin/chromium-headless-shell";

/** The Debian package that provides {@link DEFAULT_CHROMIUM_PATH}. */
export const DEFAULT_CHROMIUM_PACKAGE = "chromium-headless-shell";

/** CHROMIUM_PATH when set, otherwise {@link DEFAULT_CHROMIUM_PATH}. */
export function chromiumPath() {
  return process.env.CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH;
}
