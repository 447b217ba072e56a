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
  const created = await post(testApp, "/v1/users/create", details);
  expect(created.statusCode).toBe(200);
  const confirmed = await post(testApp, "/v1/users/confirm", {
    email: details.email,
    verificationCode: await latestCodeFor(testApp, details.email),
  });
  expect(confirmed.statusCode).toBe(200);
  const session = sessionCookieOf(confirmed)?.value;
  if (!session) throw new Error("confirm set no session cookie");
  return { ...details, session, userInfo: confirmed.json() };
}
