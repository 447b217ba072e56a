/** One message of the development mailbox (GET /dev/mailbox, newest first; non-production only). */
export interface DevMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  createdAt: string;
}

export async function readMailbox(baseUrl: string): Promise<DevMail[]> {
  const response = await fetch(`${baseUrl}/dev/mailbox`);
  if (!response.ok) throw new Error(`GET /dev/mailbox answered ${response.status}`);
  return (await response.json()) as DevMail[];
}

export async function countMailTo(baseUrl: string, to: string): Promise<number> {
  const mails = await readMailbox(baseUrl);
  return mails.filter((mail) => mail.to.toLowerCase() === to.toLowerCase()).length;
}

/**
 * Waits for a new message to `to` (more than `previousCount` of them) and returns the 6-digit code
 * in the newest one. Counting rather than comparing clocks keeps a reset code apart from the
 * verification code mailed a moment earlier.
 */
export async function waitForCode(
  baseUrl: string,
  to: string,
  previousCount = 0,
  timeoutMs = 15_000,
): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mails = (await readMailbox(baseUrl)).filter((mail) => mail.to.toLowerCase() === to.toLowerCase());
    const newest = mails[0];
    if (mails.length > previousCount && newest) {
      const code = /\b(\d{6})\b/.exec(newest.text)?.[1];
      if (!code) throw new Error(`no 6-digit code in the mail "${newest.subject}": ${newest.text}`);
      return code;
    }
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no mail to ${to} within ${timeoutMs} ms`);
}

/** The `name=value` pairs of a response's Set-Cookie headers, as a Cookie header sends them back. */
function cookiesOf(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(";")[0])
    .join("; ");
}

async function post(
  baseUrl: string,
  path: string,
  body: unknown,
  cookie = "",
): Promise<{ answer: unknown; cookie: string }> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(cookie ? { cookie } : {}) },
    body: JSON.stringify(body),
  });
  const answer = (await response.json().catch(() => ({}))) as unknown;
  if (!response.ok) throw new Error(`POST ${path} answered ${response.status}: ${JSON.stringify(answer)}`);
  return { answer, cookie: cookiesOf(response) };
}

export interface TestAccount {
  firstName: string;
  lastName: string;
  email: string;
  password: string;
}

/** A unique address per call, so journeys never collide on one server. */
export function uniqueEmail(label: string): string {
  return `e2e-${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Signs up and verifies an account through the API (no browser), for journeys that start signed out. */
export async function createVerifiedAccount(baseUrl: string, overrides: Partial<TestAccount> = {}) {
  const account: TestAccount = {
    firstName: "Grace",
    lastName: "Hopper",
    email: uniqueEmail("account"),
    password: "Sup3r!secret",
    ...overrides,
  };
  // The code confirms only in the "browser" that signed up: its sign-up cookie goes back with it.
  const { cookie } = await post(baseUrl, "/v1/users/create", account);
  const code = await waitForCode(baseUrl, account.email);
  await post(baseUrl, "/v1/users/confirm", { email: account.email, verificationCode: code }, cookie);
  return account;
}

/** Signs in through the API like another device would; returns that session's cookie header. */
export async function signInElsewhere(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/v1/users/login`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`POST /v1/users/login answered ${response.status}`);
  return cookiesOf(response);
}

/** Whether a session cookie still signs in (users/me), sent as the console's own origin would. */
export async function isSessionAlive(baseUrl: string, cookie: string): Promise<boolean> {
  const response = await fetch(`${baseUrl}/v1/users/me`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: baseUrl },
    body: "{}",
  });
  return response.ok;
}

/** Signs up through the API without verifying, leaving the account inactive. */
export async function createUnverifiedAccount(baseUrl: string, overrides: Partial<TestAccount> = {}) {
  const account: TestAccount = {
    firstName: "Katherine",
    lastName: "Johnson",
    email: uniqueEmail("unverified"),
    password: "Sup3r!secret",
    ...overrides,
  };
  await post(baseUrl, "/v1/users/create", account);
  return account;
}
