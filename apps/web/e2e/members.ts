import type { Page } from "playwright-core";
import { expect } from "vitest";
import { post } from "./funded-owner";
import { readMailbox, signInElsewhere, type TestAccount } from "./mailbox";

/** The id in the invitation link mailed to `to`. */
export async function invitationIdFor(baseUrl: string, to: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const mail = (await readMailbox(baseUrl)).find((entry) => entry.to.toLowerCase() === to.toLowerCase());
    const id = mail ? /\?invitation=([\w-]+)/.exec(mail.text)?.[1] : undefined;
    if (id) return id;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`no invitation mail to ${to} within ${timeoutMs} ms`);
}

/**
 * Makes `member` (a verified account) a member of the organization with `permissions`: the page's user
 * invites them through the API and they accept from their own session, as the mailed link would.
 */
export async function addMember(
  page: Page,
  baseUrl: string,
  organizationId: string,
  member: TestAccount,
  permissions: unknown,
): Promise<void> {
  await post(page, baseUrl, "/v1/users/organization-members/invite", {
    organizationId,
    emailList: member.email,
    permissions,
  });
  const invitationId = await invitationIdFor(baseUrl, member.email);
  const cookie = await signInElsewhere(baseUrl, member.email, member.password);
  const accepted = await fetch(`${baseUrl}/v1/users/organization-members/confirm-invitation`, {
    method: "POST",
    headers: { "content-type": "application/json", cookie, origin: baseUrl },
    body: JSON.stringify({ invitationId, confirmed: true }),
  });
  expect(accepted.status).toBe(200);
}
