import type { Page } from "playwright-core";
import { expect } from "vitest";
import { uniqueEmail, waitForCode } from "./mailbox";

export const OWNER_PASSWORD = "Sup3r-secret!";

export interface Me {
  organizations: { id: string; balance: number; projects: { id: string }[] }[];
}

/** A console call made with the page's own cookies, as the console's own origin. */
export async function post<T>(page: Page, baseUrl: string, path: string, data: unknown = {}): Promise<T> {
  const response = await page.request.post(`${baseUrl}${path}`, { data, headers: { origin: baseUrl } });
  const text = await response.text();
  expect(response.ok(), `${path}: ${response.status()} ${text}`).toBe(true);
  return (text ? JSON.parse(text) : {}) as T;
}

/**
 * Signs a new owner up in the page's browser context with the mailed verification code, leaving the
 * context signed in to an organization that has never paid. Returns the owner's email.
 */
export async function signUpOwner(
  page: Page,
  baseUrl: string,
  names: { firstName: string; lastName: string; label: string },
): Promise<string> {
  const email = uniqueEmail(names.label);
  await post(page, baseUrl, "/v1/users/create", {
    firstName: names.firstName,
    lastName: names.lastName,
    email,
    password: OWNER_PASSWORD,
  });
  const verificationCode = await waitForCode(baseUrl, email);
  await post(page, baseUrl, "/v1/users/confirm", { email, verificationCode });
  return email;
}

/**
 * Signs a new owner up in the page's browser context and funds the organization with $20 through the
 * sandbox card flow, so playground journeys start signed in with money to spend.
 */
export async function signUpFundedOwner(
  page: Page,
  baseUrl: string,
  names: { firstName: string; lastName: string; label: string },
) {
  const email = await signUpOwner(page, baseUrl, names);
  const me = await post<Me>(page, baseUrl, "/v1/users/me");
  const organizationId = me.organizations[0]?.id;
  const projectId = me.organizations[0]?.projects[0]?.id;
  if (!organizationId || !projectId) throw new Error("the new user has no organization or project");

  const { clientSecret } = await post<{ clientSecret: string }>(
    page,
    baseUrl,
    "/v1/payments/start-setup-payment",
    {
      organizationId,
    },
  );
  const { setupIntentId } = await post<{ setupIntentId: string }>(
    page,
    baseUrl,
    "/v1/payments/sandbox/confirm-setup",
    {
      clientSecret,
      number: "4242424242424242",
      expMonth: 12,
      expYear: 2030,
      cvc: "123",
    },
  );
  await post(page, baseUrl, "/v1/payments/finish-setup-payment", { setupIntentId, organizationId });
  await post(page, baseUrl, "/v1/payments/recharge-account", { organizationId, amount: 20 });
  // A plain wait rather than expect.poll: callers also run this from beforeAll, outside any test.
  for (let attempt = 0; ; attempt += 1) {
    const balance = (await post<Me>(page, baseUrl, "/v1/users/me")).organizations[0]?.balance ?? 0;
    if (balance >= 20) break;
    if (attempt >= 30) throw new Error(`the recharge never arrived (balance ${balance})`);
    await new Promise((done) => setTimeout(done, 500));
  }
  return { email, organizationId, projectId };
}
