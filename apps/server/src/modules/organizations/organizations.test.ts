import { emptyPermissions, fullPermissions, INVITATION_COOKIE } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  latestCodeFor,
  post,
  STRONG_PASSWORD,
  signUpAndConfirm,
  TestBrowser,
  uniqueEmail,
} from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";

const ARCHIVE_LAST =
  "You must belong to at least one active organization. Please create a new organization before archiving this one.";
const LEAVE_REFUSED =
  "You must belong at least to one organization. Please create a new organization before leaving.";
const LAST_PROJECT =
  "At least one project is required within the organization. Please create a new project before archiving this one.";

async function invitationLinkFor(testApp: TestApp, email: string): Promise<string> {
  const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === email);
  const id = mail?.text.match(/invitation=([0-9a-f-]{36})/)?.[1];
  if (!id) throw new Error(`no invitation mailed to ${email}`);
  return id;
}

describe("organizations, members and projects", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("creates an organization with a first project and the caller as owner", async () => {
    const { session } = await signUpAndConfirm(testApp);
    const created = await post(
      testApp,
      "/v1/users/organizations/create",
      { name: "  Acme Labs " },
      { session },
    );
    expect(created.statusCode).toBe(200);
    expect(created.json()).toMatchObject({
      name: "Acme Labs",
      balance: 0,
      permissions: { owner: true },
      properties: { isNew: true },
      projects: [{ name: "Default Project" }],
    });
    const empty = await post(testApp, "/v1/users/organizations/create", { name: "   " }, { session });
    expect(empty.statusCode).toBe(400);
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    expect(me.organizations.map((organization: { name: string }) => organization.name)).toContain(
      "Acme Labs",
    );
  });

  it("renames, and archives only while another organization remains", async () => {
    const { session, userInfo } = await signUpAndConfirm(testApp);
    const firstId = userInfo.organizations[0].id;
    const renamed = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId: firstId, name: "Renamed" },
      { session },
    );
    expect(renamed.statusCode).toBe(200);

    const refused = await post(
      testApp,
      "/v1/users/organizations/delete",
      { organizationId: firstId },
      { session },
    );
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ error: "last-organization", message: ARCHIVE_LAST });

    await post(testApp, "/v1/users/organizations/create", { name: "Second" }, { session });
    const archived = await post(
      testApp,
      "/v1/users/organizations/delete",
      { organizationId: firstId },
      { session },
    );
    expect(archived.statusCode).toBe(200);
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    expect(me.organizations.map((organization: { name: string }) => organization.name)).toEqual(["Second"]);
    // An archived organization is gone for every call.
    const rename = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId: firstId, name: "Back" },
      { session },
    );
    expect(rename.statusCode).toBe(404);
  });

  it("invites by mail; the invitee checks, joins with the invited permissions, and may leave", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Olivia" });
    const organizationId = owner.userInfo.organizations[0].id;
    const projectId = owner.userInfo.organizations[0].projects[0].id;
    const inviteeEmail = uniqueEmail("invitee");
    const permissions = {
      ...emptyPermissions(),
      organization: { general: false, billing: true, payments: false, invoices: true, playground: true },
      projects: { all: false, [projectId]: true },
    };

    const badList = await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: `${inviteeEmail} not-an-email`, permissions },
      { session: owner.session },
    );
    expect(badList.statusCode).toBe(400);
    expect((await testApp.deps.outbox.list()).some((mail) => mail.to === inviteeEmail)).toBe(false);

    const invited = await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: `${inviteeEmail}, ${inviteeEmail}`, permissions },
      { session: owner.session },
    );
    expect(invited.statusCode).toBe(200);
    const invitationId = await invitationLinkFor(testApp, inviteeEmail);
    const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === inviteeEmail);
    expect(mail?.text).toContain(`/organization/members?invitation=${invitationId}`);

    const listed = (
      await post(
        testApp,
        "/v1/users/organization-members/list",
        { organizationId },
        { session: owner.session },
      )
    ).json();
    expect(listed.invitations).toEqual([{ id: invitationId, email: inviteeEmail }]);
    expect(listed.members).toHaveLength(1);
    expect(listed.projects).toEqual([{ id: projectId, name: "Default Project", organizationId }]);

    const publicCheck = await post(testApp, "/v1/users/organization-members/check-invitation", {
      invitationId,
    });
    expect(publicCheck.json()).toEqual({
      valid: true,
      shouldLogOut: false,
      organizationName: "Olivia's Organization",
      email: inviteeEmail,
    });
    const ownerCheck = await post(
      testApp,
      "/v1/users/organization-members/check-invitation",
      { invitationId },
      { session: owner.session },
    );
    expect(ownerCheck.json().shouldLogOut).toBe(true);

    const invitee = await signUpAndConfirm(testApp, { email: inviteeEmail, firstName: "Ivan" });
    // The owner cannot answer an invitation meant for somebody else.
    const stolen = await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: true },
      { session: owner.session },
    );
    expect(stolen.statusCode).toBe(404);

    const joined = await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: true },
      { session: invitee.session },
    );
    expect(joined.json()).toEqual({ organizationId });
    const again = await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: true },
      { session: invitee.session },
    );
    expect(again.statusCode).toBe(404);
    expect(
      (await post(testApp, "/v1/users/organization-members/check-invitation", { invitationId })).json().valid,
    ).toBe(false);

    const me = (await post(testApp, "/v1/users/me", {}, { session: invitee.session })).json();
    const joinedOrganization = me.organizations.find(
      (organization: { id: string }) => organization.id === organizationId,
    );
    expect(joinedOrganization.permissions).toMatchObject({
      owner: false,
      organization: { billing: true, invoices: true, playground: true, general: false, payments: false },
      projects: { all: false, [projectId]: true },
    });

    const afterJoin = (
      await post(
        testApp,
        "/v1/users/organization-members/list",
        { organizationId },
        { session: owner.session },
      )
    ).json();
    expect(afterJoin.members.map((member: { email: string }) => member.email)).toEqual([
      owner.email,
      inviteeEmail,
    ]);
    expect(afterJoin.invitations).toEqual([]);

    const ownerLeaves = await post(
      testApp,
      "/v1/users/organization-members/remove",
      { organizationId, userIdToRemove: owner.userInfo.id },
      { session: owner.session },
    );
    expect(ownerLeaves.json()).toMatchObject({ error: "owner-cannot-leave", message: LEAVE_REFUSED });

    const leaves = await post(
      testApp,
      "/v1/users/organization-members/remove",
      { organizationId, userIdToRemove: invitee.userInfo.id },
      { session: invitee.session },
    );
    expect(leaves.statusCode).toBe(200);
    const after = (await post(testApp, "/v1/users/me", {}, { session: invitee.session })).json();
    expect(after.organizations.map((organization: { id: string }) => organization.id)).not.toContain(
      organizationId,
    );
  });

  it("declining or revoking uses the invitation up", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const email = uniqueEmail("decliner");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: email, permissions: emptyPermissions() },
      { session: owner.session },
    );
    const invitationId = await invitationLinkFor(testApp, email);
    const decliner = await signUpAndConfirm(testApp, { email });
    const declined = await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: false },
      { session: decliner.session },
    );
    expect(declined.statusCode).toBe(200);
    const me = (await post(testApp, "/v1/users/me", {}, { session: decliner.session })).json();
    expect(me.organizations).toHaveLength(1);

    const second = uniqueEmail("revoked");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: second, permissions: emptyPermissions() },
      { session: owner.session },
    );
    const secondId = await invitationLinkFor(testApp, second);
    const revoked = await post(
      testApp,
      "/v1/users/organization-members/revoke-invitation",
      { organizationId, invitationId: secondId },
      { session: owner.session },
    );
    expect(revoked.statusCode).toBe(200);
    expect(
      (
        await post(testApp, "/v1/users/organization-members/check-invitation", { invitationId: secondId })
      ).json(),
    ).toEqual({ valid: false, shouldLogOut: false, organizationName: null, email: null });
  });

  it("gives a newcomer signing up from their invitation no organization of their own: they join the inviting one", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Olga" });
    const organization = owner.userInfo.organizations[0];
    const invite = async (email: string) => {
      const invited = await post(
        testApp,
        "/v1/users/organization-members/invite",
        { organizationId: organization.id, emailList: email, permissions: emptyPermissions() },
        { session: owner.session },
      );
      expect(invited.statusCode).toBe(200);
      return invitationLinkFor(testApp, email);
    };
    /** Signs up in a browser that followed an invitation link: the console keeps its id in a cookie. */
    const signUpFollowing = async (
      invitationCookie: string,
      details: { email: string; firstName: string },
    ) => {
      const browser = new TestBrowser(testApp);
      browser.cookies.set(INVITATION_COOKIE, invitationCookie);
      const created = await browser.post("/v1/users/create", {
        ...details,
        lastName: "Newcomer",
        password: STRONG_PASSWORD,
      });
      expect(created.statusCode).toBe(200);
      const confirmed = await browser.post("/v1/users/confirm", {
        email: details.email,
        verificationCode: await latestCodeFor(testApp, details.email),
      });
      expect(confirmed.statusCode).toBe(200);
      return { browser, userInfo: confirmed.json() };
    };

    // Accepting: the only organization is the one that invited them.
    const joinerEmail = uniqueEmail("joiner");
    const joinerInvitation = await invite(joinerEmail);
    const joiner = await signUpFollowing(joinerInvitation, { email: joinerEmail, firstName: "Ivan" });
    expect(joiner.userInfo.organizations).toEqual([]);
    const joined = await joiner.browser.post("/v1/users/organization-members/confirm-invitation", {
      invitationId: joinerInvitation,
      confirmed: true,
    });
    expect(joined.json()).toEqual({ organizationId: organization.id });
    const joinerMe = (await joiner.browser.post("/v1/users/me", {})).json();
    expect(joinerMe.organizations.map((entry: { name: string }) => entry.name)).toEqual([organization.name]);

    // Declining: they are given their own organization then, never left without one.
    const declinerEmail = uniqueEmail("decliner");
    const declinerInvitation = await invite(declinerEmail);
    const decliner = await signUpFollowing(declinerInvitation, { email: declinerEmail, firstName: "Dora" });
    expect(decliner.userInfo.organizations).toEqual([]);
    const declined = await decliner.browser.post("/v1/users/organization-members/confirm-invitation", {
      invitationId: declinerInvitation,
      confirmed: false,
    });
    expect(declined.statusCode).toBe(200);
    const declinerMe = (await decliner.browser.post("/v1/users/me", {})).json();
    expect(declinerMe.organizations).toHaveLength(1);
    expect(declinerMe.organizations[0]).toMatchObject({
      name: "Dora's Organization",
      permissions: { owner: true },
    });
    expect(declinerMe.organizations[0].projects).toHaveLength(1);

    // Another person's invitation, or no invitation at all, in the cookie: the usual organization.
    const someoneElsesInvitation = await invite(uniqueEmail("someone-else"));
    for (const cookie of [someoneElsesInvitation, "not-an-invitation"]) {
      const email = uniqueEmail("stranger");
      const stranger = await signUpFollowing(cookie, { email, firstName: "Sam" });
      expect(stranger.userInfo.organizations.map((entry: { name: string }) => entry.name)).toEqual([
        "Sam's Organization",
      ]);
    }
  });

  it("edits permissions (never the owner's, never one's own) and transfers ownership", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const projectId = owner.userInfo.organizations[0].projects[0].id;
    const memberEmail = uniqueEmail("member");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: memberEmail, permissions: emptyPermissions() },
      { session: owner.session },
    );
    const invitationId = await invitationLinkFor(testApp, memberEmail);
    const member = await signUpAndConfirm(testApp, { email: memberEmail });
    await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId, confirmed: true },
      { session: member.session },
    );

    const withAllProjects = {
      ...emptyPermissions(),
      members: { invite: false, edit: true, delete: false },
      projects: { all: true },
    };
    const edited = await post(
      testApp,
      "/v1/users/organization-members/edit-permissions",
      { organizationId, memberUserId: member.userInfo.id, permissions: { ...withAllProjects, owner: true } },
      { session: owner.session },
    );
    expect(edited.statusCode).toBe(200);
    const listed = (
      await post(
        testApp,
        "/v1/users/organization-members/list",
        { organizationId },
        { session: owner.session },
      )
    ).json();
    const memberRow = listed.members.find((row: { id: string }) => row.id === member.userInfo.id);
    // The owner flag cannot be granted this way; All Projects turns every project on.
    expect(memberRow.permissions.owner).toBe(false);
    expect(memberRow.permissions.projects).toEqual({ all: true, [projectId]: true });

    const onOwner = await post(
      testApp,
      "/v1/users/organization-members/edit-permissions",
      { organizationId, memberUserId: owner.userInfo.id, permissions: emptyPermissions() },
      { session: member.session },
    );
    expect(onOwner.statusCode).toBe(409);
    const onSelf = await post(
      testApp,
      "/v1/users/organization-members/edit-permissions",
      { organizationId, memberUserId: member.userInfo.id, permissions: fullPermissions(false) },
      { session: member.session },
    );
    expect(onSelf.statusCode).toBe(403);

    const notOwner = await post(
      testApp,
      "/v1/users/organizations/change-owner",
      { organizationId, newOwnerUserId: member.userInfo.id },
      { session: member.session },
    );
    expect(notOwner.statusCode).toBe(403);
    const transferred = await post(
      testApp,
      "/v1/users/organizations/change-owner",
      { organizationId, newOwnerUserId: member.userInfo.id },
      { session: owner.session },
    );
    expect(transferred.statusCode).toBe(200);
    expect(transferred.json().newPermissions).toEqual(fullPermissions(false, [projectId]));
    const memberView = (await post(testApp, "/v1/users/me", {}, { session: member.session })).json();
    expect(
      memberView.organizations.find((o: { id: string }) => o.id === organizationId).permissions.owner,
    ).toBe(true);
    const formerView = (await post(testApp, "/v1/users/me", {}, { session: owner.session })).json();
    expect(
      formerView.organizations.find((o: { id: string }) => o.id === organizationId).permissions.owner,
    ).toBe(false);
  });

  it("creates, renames and archives projects, keeping at least one", async () => {
    const { session, userInfo } = await signUpAndConfirm(testApp);
    const organizationId = userInfo.organizations[0].id;
    const firstProjectId = userInfo.organizations[0].projects[0].id;
    const lastOne = await post(
      testApp,
      "/v1/users/projects/delete",
      { projectId: firstProjectId },
      { session },
    );
    expect(lastOne.json()).toMatchObject({ error: "last-project", message: LAST_PROJECT });

    const created = await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: "Mobile App" },
      { session },
    );
    expect(created.json()).toMatchObject({ name: "Mobile App", organizationId });
    const renamed = await post(
      testApp,
      "/v1/users/projects/update",
      { projectId: created.json().id, name: "iOS App" },
      { session },
    );
    expect(renamed.statusCode).toBe(200);
    const archived = await post(
      testApp,
      "/v1/users/projects/delete",
      { projectId: firstProjectId },
      { session },
    );
    expect(archived.statusCode).toBe(200);
    const me = (await post(testApp, "/v1/users/me", {}, { session })).json();
    expect(me.organizations[0].projects.map((project: { name: string }) => project.name)).toEqual([
      "iOS App",
    ]);
  });
});
