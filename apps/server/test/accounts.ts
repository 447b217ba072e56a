import type { LightMyRequestResponse } from "fastify";
import { expect } from "vitest";
import { SESSION_COOKIE } from "../src/modules/auth/session-cookie";
import { SAME_ORIGIN, type TestApp } from "./test-app";

export const STRONG_PASSWORD = "Sup3r-secret!";

let counter = 0;
export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now()}-${counter}@example.com`;
}

/** A console call as the browser makes it: POST JSON, same origin, optional session cookie. */
export function post(
  testApp: TestApp,
  url: string,
  payload: object = {},
  options: { session?: string; remoteAddress?: string } = {},
): Promise<LightMyRequestResponse> {
  return testApp.app.inject({
    method: "POST",
    url,
    payload,
    headers: SAME_ORIGIN,
    ...(options.session ? { cookies: { [SESSION_COOKIE]: options.session } } : {}),
    ...(options.remoteAddress ? { remoteAddress: options.remoteAddress } : {}),
  });
}

export function sessionCookieOf(response: LightMyRequestResponse) {
  return response.cookies.find((cookie) => cookie.name === SESSION_COOKIE);
}

/** The newest code mailed to `email`, read from the outbox as a developer would. */
export async function latestCodeFor(testApp: TestApp, email: string): Promise<string> {
  const mails = await testApp.deps.outbox.list();
  const mail = mails.find((candidate) => candidate.to === email);
  const code = mail?.text.match(/\b(\d{6})\b/)?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/**
 * One browser over `app.inject`: it keeps every cookie the server sets (and drops the ones it clears)
 * and sends them all back with each call, as a browser on the console's origin does. Two instances are
 * two browsers, which is what the sign-up binding tells apart.
 */
export class TestBrowser {
  readonly cookies = new Map<string, string>();

  constructor(
    private readonly testApp: TestApp,
    private readonly options: { remoteAddress?: string } = {},
  ) {}

  async post(url: string, payload: object = {}): Promise<LightMyRequestResponse> {
    const response = await this.testApp.app.inject({
      method: "POST",
      url,
      payload,
      headers: SAME_ORIGIN,
      cookies: Object.fromEntries(this.cookies),
      ...(this.options.remoteAddress ? { remoteAddress: this.options.remoteAddress } : {}),
    });
    for (const cookie of response.cookies) {
      const expired =
        cookie.value === "" ||
        (cookie.maxAge !== undefined && cookie.maxAge <= 0) ||
        (cookie.expires !== undefined && new Date(cookie.expires).getTime() <= Date.now());
      if (expired) this.cookies.delete(cookie.name);
      else this.cookies.set(cookie.name, cookie.value);
    }
    return response;
  }

  get session(): string | undefined {
    return this.cookies.get(SESSION_COOKIE);
  }
}

/** Signs a user up through the API, confirms the mailed code, and returns their session token. */
export async function signUpAndConfirm(
  testApp: TestApp,
  overrides: Partial<{ firstName: string; lastName: string; email: string; password: string }> = {},
) {
  const details = {
    firstName: "Ada",
    lastName: "Lovelace",
    email: uniqueEmail(),
    password: STRONG_PASSWORD,
    ...overrides,
  };
  // Sign-up and confirmation happen in one browser, as in the console.
  const browser = new TestBrowser(testApp);
  const created = await browser.post("/v1/users/create", details);
  expect(created.statusCode).toBe(200);
  const confirmed = await browser.post("/v1/users/confirm", {
    email: details.email,
    verificationCode: await latestCodeFor(testApp, details.email),
  });
  expect(confirmed.statusCode).toBe(200);
  const session = sessionCookieOf(confirmed)?.value;
  if (!session) throw new Error("confirm set no session cookie");
  return { ...details, session, userInfo: confirmed.json() };
}
