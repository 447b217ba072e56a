import { ERROR_STATUS, type ErrorCode, fullPermissions, type Permissions } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { auditLog, invitations, organizationMembers } from "../../db/schema";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { cachedBalance } from "../ledger/ledger.service";

async function invitationRows(testApp: TestApp, organizationId: string) {
  return testApp.database.db
    .select()
    .from(invitations)
    .where(eq(invitations.organizationId, organizationId))
    .orderBy(invitations.email);
}

async function memberRows(testApp: TestApp, organizationId: string) {
  return testApp.database.db
    .select()
    .from(organizationMembers)
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(organizationMembers.userId);
}

const mailCount = async (testApp: TestApp) => (await testApp.deps.outbox.list()).length;

function invite(
  testApp: TestApp,
  session: string,
  organizationId: string,
  emails: string[],
  permissions: Permissions,
) {
  return post(
    testApp,
    "/v1/users/organization-members/invite",
    { organizationId, emailList: emails.join(" "), permissions },
    { session },
  );
}

describe("members abuse", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  describe("a member grants only what they hold", () => {
    it("refuses an invitation carrying rights the inviter lacks: nothing stored, no mail", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const inviter = await addMember(
        testApp,
        owner.session,
        organizationId,
        permissionsWith(["members.invite"]),
      );
      const before = { rows: await invitationRows(testApp, organizationId), mails: await mailCount(testApp) };

      const accomplice = uniqueEmail("accomplice");
      const everything = await invite(
        testApp,
        inviter.session,
        organizationId,
        [accomplice],
        fullPermissions(false),
      );
      expect(everything.statusCode).toBe(403);
      expect(everything.json().error).toBe("forbidden");
      const paymentsOnly = await invite(
        testApp,
        inviter.session,
        organizationId,
        [accomplice],
        permissionsWith(["organization.payments"]),
      );
      expect(paymentsOnly.statusCode).toBe(403);
      expect(await invitationRows(testApp, organizationId)).toEqual(before.rows);
      expect(await mailCount(testApp)).toBe(before.mails);

      // What the inviter holds may be passed on.
      const same = await invite(
        testApp,
        inviter.session,
        organizationId,
        [accomplice],
        permissionsWith(["members.invite"]),
      );
      expect(same.statusCode).toBe(200);
    });

    it("refuses all projects to an inviter who holds one project, and allows that project", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const firstProject = owner.userInfo.organizations[0].projects[0].id;
      const created = await post(
        testApp,
        "/v1/users/projects/create",
        { organizationId, name: "Second" },
        { session: owner.session },
      );
      expect(created.statusCode).toBe(200);
      const secondProject: string = created.json().id;
      const inviter = await addMember(
        testApp,
        owner.session,
        organizationId,
        permissionsWith(["members.invite", `projects.${firstProject}`]),
      );
      const before = await invitationRows(testApp, organizationId);

      const all = await invite(
        testApp,
        inviter.session,
        organizationId,
        [uniqueEmail()],
        permissionsWith(["projects.all"]),
      );
      expect(all.statusCode).toBe(403);
      const other = await invite(
        testApp,
        inviter.session,
        organizationId,
        [uniqueEmail()],
        permissionsWith([`projects.${secondProject}`]),
      );
      expect(other.statusCode).toBe(403);
      expect(await invitationRows(testApp, organizationId)).toEqual(before);

      const own = await invite(
        testApp,
        inviter.session,
        organizationId,
        [uniqueEmail()],
        permissionsWith([`projects.${firstProject}`]),
      );
      expect(own.statusCode).toBe(200);
    });

    it("refuses edit-permissions that grant what the editor lacks, and keeps what the member had", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const editor = await addMember(
        testApp,
        owner.session,
        organizationId,
        permissionsWith(["members.edit", "organization.general"]),
      );
      const target = await addMember(
        testApp,
        owner.session,
        organizationId,
        permissionsWith(["organization.payments"]),
      );
      const edit = (permissions: Permissions) =>
        post(
          testApp,
          "/v1/users/organization-members/edit-permissions",
          { organizationId, memberUserId: target.userInfo.id, permissions },
          { session: editor.session },
        );
      const before = await memberRows(testApp, organizationId);

      const billing = await edit(permissionsWith(["organization.payments", "organization.billing"]));
      expect(billing.statusCode).toBe(403);
      expect(billing.json().error).toBe("forbidden");
      const everything = await edit(fullPermissions(false));
      expect(everything.statusCode).toBe(403);
      expect(await memberRows(testApp, organizationId)).toEqual(before);

      // Adding a right the editor holds while leaving the member's payments as it was is no grant.
      const kept = await edit(permissionsWith(["organization.payments", "organization.general"]));
      expect(kept.statusCode).toBe(200);
      const [stored] = (await memberRows(testApp, organizationId)).filter(
        (row) => row.userId === target.userInfo.id,
      );
      expect(stored?.permissions).toMatchObject({
        organization: { payments: true, general: true, billing: false },
      });
    });

    it("lets the owner grant every right", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const member = await addMember(testApp, owner.session, organizationId, fullPermissions(false));
      const me = (await post(testApp, "/v1/users/me", {}, { session: member.session })).json();
      const joined = me.organizations.find(
        (organization: { id: string }) => organization.id === organizationId,
      );
      expect(joined.permissions).toMatchObject({
        owner: false,
        organization: { general: true, billing: true, payments: true, invoices: true, playground: true },
        members: { invite: true, edit: true, delete: true },
        projects: { all: true },
      });
    });
  });

  describe("invitation mail", () => {
    it("builds the link from the configured origin, never from the request's Host header", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const email = uniqueEmail("hosted");
      const response = await testApp.app.inject({
        method: "POST",
        url: "/v1/users/organization-members/invite",
        headers: { host: "evil.example", origin: "http://evil.example" },
        cookies: { [SESSION_COOKIE]: owner.session },
        payload: { organizationId, emailList: email, permissions: permissionsWith([]) },
      });
      expect(response.statusCode).toBe(200);
      const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === email);
      expect(mail?.text).toContain(
        `http://localhost:${testApp.config.port}/organization/members?invitation=`,
      );
      expect(mail?.text).not.toContain("evil.example");
      expect(mail?.html).not.toContain("evil.example");
    });

    it("uses PUBLIC_URL when it is set", async () => {
      const publicApp = await createTestApp({ PUBLIC_URL: "https://console.example.com" });
      try {
        const owner = await signUpAndConfirm(publicApp);
        const email = uniqueEmail("public");
        const response = await publicApp.app.inject({
          method: "POST",
          url: "/v1/users/organization-members/invite",
          headers: { host: "evil.example", origin: "http://evil.example" },
          cookies: { [SESSION_COOKIE]: owner.session },
          payload: {
            organizationId: owner.userInfo.organizations[0].id,
            emailList: email,
            permissions: permissionsWith([]),
          },
        });
        expect(response.statusCode).toBe(200);
        const mail = (await publicApp.deps.outbox.list()).find((candidate) => candidate.to === email);
        expect(mail?.text).toContain("https://console.example.com/organization/members?invitation=");
      } finally {
        await publicApp.close();
      }
    });
  });

  describe("invitation throttling", () => {
    const batch = (label: string, size: number) =>
      Array.from({ length: size }, (_, index) => uniqueEmail(`${label}${index}`));

    const expectThrottled = (response: Awaited<ReturnType<typeof post>>) => {
      expect(response.statusCode).toBe(429);
      expect(ERROR_STATUS[response.json().error as ErrorCode]).toBe(429);
    };

    it("throttles one inviter: past the hourly number nothing is stored and no mail is sent", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      for (let call = 0; call < 2; call += 1) {
        const sent = await invite(
          testApp,
          owner.session,
          organizationId,
          batch("flood", 50),
          permissionsWith([]),
        );
        expect(sent.statusCode).toBe(200);
      }
      const before = {
        rows: (await invitationRows(testApp, organizationId)).length,
        mails: await mailCount(testApp),
      };
      expect(before.rows).toBe(100);

      const over = await invite(
        testApp,
        owner.session,
        organizationId,
        [uniqueEmail("one-more")],
        permissionsWith([]),
      );
      expectThrottled(over);
      expect((await invitationRows(testApp, organizationId)).length).toBe(before.rows);
      expect(await mailCount(testApp)).toBe(before.mails);

      // The same inviter is throttled in another organization of theirs too.
      const other = await post(
        testApp,
        "/v1/users/organizations/create",
        { name: "Other" },
        { session: owner.session },
      );
      const elsewhere = await invite(
        testApp,
        owner.session,
        other.json().id,
        [uniqueEmail()],
        permissionsWith([]),
      );
      expectThrottled(elsewhere);
    });

    it("throttles one organization whoever invites", async () => {
      const owner = await signUpAndConfirm(testApp);
      const organizationId = owner.userInfo.organizations[0].id;
      const helper = await addMember(
        testApp,
        owner.session,
        organizationId,
        permissionsWith(["members.invite"]),
      );
      // The owner's own budget: the helper's invitation plus 99 more.
      for (const size of [50, 49]) {
        const sent = await invite(
          testApp,
          owner.session,
          organizationId,
          batch("org", size),
          permissionsWith([]),
        );
        expect(sent.statusCode).toBe(200);
      }
      const helped = await invite(
        testApp,
        helper.session,
        organizationId,
        batch("helper", 50),
        permissionsWith([]),
      );
      expect(helped.statusCode).toBe(200);
      const before = await mailCount(testApp);

      // The helper sent 50 of their own; the organization as a whole is over its budget.
      const over = await invite(
        testApp,
        helper.session,
        organizationId,
        [uniqueEmail("x")],
        permissionsWith([]),
      );
      expectThrottled(over);
      expect(await mailCount(testApp)).toBe(before);
    });
  });
});

describe("a removed member's API keys", () => {
  let model: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    model = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(model));
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
  });

  it("stop working when the member is removed or leaves, in the same change, audit-logged", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const { organizationId, projectId } = account;
    const rights = permissionsWith(["apiKeys.create", "projects.all"]);
    const removed = await addMember(testApp, account.owner.session, organizationId, rights);
    const leaving = await addMember(testApp, account.owner.session, organizationId, rights);
    const createKey = async (session: string, apiKeyName: string) => {
      const response = await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName },
        { session },
      );
      expect(response.statusCode, response.body).toBe(200);
      return response.json().apiKey as { id: string; content: string };
    };
    const removedKeys = [
      await createKey(removed.session, "removed-1"),
      await createKey(removed.session, "removed-2"),
    ];
    const leavingKey = await createKey(leaving.session, "leaving");
    const ownerKey = await account.createKey(undefined, "owner's");
    for (const key of [...removedKeys, leavingKey]) {
      expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
    }

    // The Remove dialog's count comes with the member list.
    const listed = await post(
      testApp,
      "/v1/users/organization-members/list",
      { organizationId },
      account.owner,
    );
    expect(listed.statusCode, listed.body).toBe(200);
    const countOf = (email: string) =>
      listed.json().members.find((member: { email: string }) => member.email === email)?.apiKeyCount;
    expect(countOf(removed.email)).toBe(2);
    expect(countOf(leaving.email)).toBe(1);
    expect(countOf(account.owner.email)).toBe(1);

    const removal = await post(
      testApp,
      "/v1/users/organization-members/remove",
      { organizationId, userIdToRemove: removed.userInfo.id },
      account.owner,
    );
    expect(removal.statusCode, removal.body).toBe(200);
    const left = await post(
      testApp,
      "/v1/users/organization-members/remove",
      { organizationId, userIdToRemove: leaving.userInfo.id },
      leaving,
    );
    expect(left.statusCode, left.body).toBe(200);

    const balance = await cachedBalance(testApp.database.db, organizationId);
    for (const key of [...removedKeys, leavingKey]) {
      const refused = await removeBackground(testApp, key.content);
      expect(refused.statusCode, refused.body).toBe(401);
    }
    expect(await cachedBalance(testApp.database.db, organizationId)).toBe(balance);
    expect((await removeBackground(testApp, ownerKey.content)).statusCode).toBe(200);

    // The key list shows only the owner's key; each revocation is in the audit log.
    const keys = await post(testApp, "/v1/users/api-keys/list", { projectId }, account.owner);
    expect(keys.json().apiKeys.map((key: { id: string }) => key.id)).toEqual([ownerKey.id]);
    const revocations = await testApp.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.action, "api-key.revoked-with-member"));
    expect(revocations.map((entry) => entry.targetId).sort()).toEqual(
      [...removedKeys, leavingKey].map((key) => key.id).sort(),
    );
    expect(revocations.every((entry) => entry.organizationId === organizationId)).toBe(true);
  });
});
