import type { Locator, Page } from "playwright-core";
import { expect } from "vitest";
import { type BrowserSession, openBrowser, skipWelcomePopup } from "./browser";
import { post, signUpFundedOwner } from "./funded-owner";

/** What a playground screen's history says before its first call. */
export const EMPTY_HISTORY =
  "You haven't used this section yet. Start now using the options in the left panel!";

/** The price line of a screen whose price does not depend on the input. */
export const CHARGED_PRICE_LINE = /^\$\d+\.\d{3} will be charged$/;

export interface PlaygroundOwner {
  session: BrowserSession;
  projectId: string;
}

/**
 * A fresh browser with a new funded owner signed in and the welcome popup already seen: the start of
 * every playground journey file. The browser is closed again when the sign-up fails, since the caller's
 * afterAll never receives it.
 */
export async function openFundedPlayground(names: {
  firstName: string;
  lastName: string;
  label: string;
}): Promise<PlaygroundOwner> {
  const session = await openBrowser();
  try {
    const { projectId } = await signUpFundedOwner(session.page, session.baseUrl, names);
    await skipWelcomePopup(session.page);
    return { session, projectId };
  } catch (error) {
    await session.close();
    throw error;
  }
}

export interface FeatureStatus {
  endpoint: string;
  available: boolean;
  reason: string | null;
  provider: string | null;
}

/** Whether the test server has an engine for `endpoint`, as the playground asks before showing it. */
export async function featureStatus(
  page: Page,
  baseUrl: string,
  endpoint: string,
): Promise<FeatureStatus | undefined> {
  const { features } = await post<{ features: FeatureStatus[] }>(
    page,
    baseUrl,
    "/v1/users/playground/feature-status",
  );
  return features.find((feature) => feature.endpoint === endpoint);
}

/**
 * The screen of a feature the test server has no engine for: it says so and keeps the action off. The
 * warning keeps the skipped part of the journey visible in the test output.
 */
export async function expectFeatureUnavailable(
  session: BrowserSession,
  action: Locator,
  feature: string,
  status: FeatureStatus | undefined,
  screenshot: string,
): Promise<void> {
  console.warn(`${feature} unavailable in the test server: ${status?.reason}`);
  await session.page.getByTestId("feature-unavailable").waitFor();
  expect(await action.isDisabled()).toBe(true);
  await session.screenshot(screenshot);
}

/** A history item as the server stored it: the inputs' file URLs, the body, and the output file. */
export interface StoredRequest {
  id: string;
  status: string;
  request_data: { files: Record<string, string[]>; body: Record<string, unknown> };
  response_data: { file?: string };
  /** Dollars the call cost (0 once failed and refunded). */
  cost: number;
}

export interface PlaygroundHistory {
  requests: StoredRequest[];
  priceInfo: { price: number; priceIdentity?: number };
}

/** The first page of the project's history for `endpoint`, newest first, with the feature's prices. */
export function playgroundHistory(
  page: Page,
  baseUrl: string,
  projectId: string,
  endpoint: string,
): Promise<PlaygroundHistory> {
  return post<PlaygroundHistory>(page, baseUrl, "/v1/users/playground/get-requests", {
    endpoint,
    projectId,
    offset: 0,
  });
}

export async function storedRequests(
  page: Page,
  baseUrl: string,
  projectId: string,
  endpoint: string,
): Promise<StoredRequest[]> {
  return (await playgroundHistory(page, baseUrl, projectId, endpoint)).requests;
}

/** The body the server stored for the newest history item of `endpoint`. */
export async function lastStoredBody(
  page: Page,
  baseUrl: string,
  projectId: string,
  endpoint: string,
): Promise<Record<string, unknown>> {
  const [newest] = await storedRequests(page, baseUrl, projectId, endpoint);
  return newest?.request_data.body ?? {};
}

/** A file the server stored for a request (an input, a mask or an output), read with the page's session. */
export async function storedFile(page: Page, baseUrl: string, url: string): Promise<Buffer> {
  const response = await page.request.get(new URL(url, baseUrl).toString());
  expect(response.ok(), `GET ${url}: ${response.status()}`).toBe(true);
  return response.body();
}

export interface StoredClone {
  /** The training request id. */
  id: string;
  identity_id: string;
  description: string;
  identity_status: string;
}

/** The project's AI Clones as the training screen and the clone pickers list them. */
export async function listTrainedClones(
  page: Page,
  baseUrl: string,
  projectId: string,
): Promise<StoredClone[]> {
  const { requests } = await post<{ requests: StoredClone[] }>(
    page,
    baseUrl,
    "/v1/users/playground/get-trained-identities",
    { projectId, offset: 0 },
  );
  return requests;
}

/**
 * Sends a public feature call as multipart form data with the page's session cookies, the way the
 * playground does; `post` cannot, since it sends JSON.
 */
export async function postFeatureForm(
  page: Page,
  baseUrl: string,
  projectId: string,
  path: string,
  form: FormData,
): Promise<Response> {
  const cookies = await page.context().cookies(baseUrl);
  return fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: {
      origin: baseUrl,
      cookie: cookies.map((cookie) => `${cookie.name}=${cookie.value}`).join("; "),
      "x-authorization-project": projectId,
    },
    body: form,
  });
}

/** The history rows of the open playground screen, newest first, optionally only those in `status`. */
export function historyRows(
  page: Page,
  status?: "queued" | "generating" | "done" | "error" | "canceled",
): Locator {
  return page.locator(
    status ? `[data-testid=history-row][data-status="${status}"]` : "[data-testid=history-row]",
  );
}

/** Waits until an image has loaded real pixels, not only its element. */
export async function expectImageLoaded(image: Locator): Promise<void> {
  await expect
    .poll(() => image.evaluate((element: HTMLImageElement) => element.naturalWidth))
    .toBeGreaterThan(0);
}

/** Deletes `row` through its confirmation dialog (titled after what the screen stores). */
export async function deleteHistoryRow(
  page: Page,
  row: Locator,
  confirmTitle = "Delete Image",
): Promise<void> {
  await row.getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("dialog", { name: confirmTitle });
  await confirm.waitFor();
  await confirm.getByRole("button", { name: "Yes, proceed" }).click();
  await confirm.waitFor({ state: "hidden" });
}

/** Deletes the history's only row and waits for the screen's empty history. */
export async function deleteOnlyRow(page: Page, confirmTitle = "Delete Image"): Promise<void> {
  const rows = historyRows(page);
  await deleteHistoryRow(page, rows, confirmTitle);
  await expect.poll(() => rows.count()).toBe(0);
  await page.getByText(EMPTY_HISTORY).waitFor();
}

/** Waits for the dialog titled `title` and, when given, for `message` inside it. */
export async function waitForDialog(
  page: Page,
  title: string,
  options: { message?: string | RegExp; timeout?: number } = {},
): Promise<Locator> {
  const dialog = page.getByRole("dialog", { name: title });
  await dialog.waitFor(options.timeout === undefined ? undefined : { timeout: options.timeout });
  if (options.message) await dialog.getByText(options.message).waitFor();
  return dialog;
}

/** Closes a dialog with its Close button and waits until it is gone. */
export async function closeDialog(dialog: Locator): Promise<void> {
  await dialog.getByRole("button", { name: "Close", exact: true }).click();
  await dialog.waitFor({ state: "hidden" });
}
