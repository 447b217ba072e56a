import { emptyPermissions, type PermissionPath, type Permissions } from "@prism/contract";
import { expect } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "./accounts";
import type { TestApp } from "./test-app";

/** A tree with only the named rights on (`projects.<id>` names one project). */
export function permissionsWith(paths: PermissionPath[]): Permissions {
  const permissions = emptyPermissions();
  for (const path of paths) {
    const [group, key] = path.split(".") as [string, string];
    (permissions as unknown as Record<string, Record<string, boolean>>)[group]![key] = true;
  }
  return permissions;
}

/** The id in the newest invitation link mailed to `email`. */
export async function invitationIdFor(testApp: TestApp, email: string): Promise<string> {
  const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === email);
  const id = mail?.text.match(/invitation=([0-9a-f-]{36})/)?.[1];
  if (!id) throw new Error(`no invitation mailed to ${email}`);
  return id;
}

/**
 * A new member of the organization with exactly `permissions`: invited by `inviterSession`, signed up
 * and confirmed through the API, and joined by accepting the invitation.
 */
export async function addMember(
  testApp: TestApp,
  inviterSession: string,
  organizationId: string,
  permissions: Permissions,
  overrides: Partial<{ firstName: string; email: string }> = {},
) {
  const email = overrides.email ?? uniqueEmail("member");
  const invited = await post(
    testApp,
    "/v1/users/organization-members/invite",
    { organizationId, emailList: email, permissions },
    { session: inviterSession },
  );
  expect(invited.statusCode, invited.body).toBe(200);
  const invitationId = await invitationIdFor(testApp, email);
  const member = await signUpAndConfirm(testApp, { ...overrides, email });
  const joined = await post(
    testApp,
    "/v1/users/organization-members/confirm-invitation",
    { invitationId, confirmed: true },
    { session: member.session },
  );
  expect(joined.statusCode, joined.body).toBe(200);
  return member;
}
