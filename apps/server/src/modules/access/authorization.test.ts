import { allCalls, emptyPermissions, fullPermissions } from "@prism/contract";
import { eq, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { addMember } from "../../../test/members";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, type TestApp } from "../../../test/test-app";
import {
  apiKeys,
  invitations,
  oauthAccounts,
  organizationMembers,
  organizations,
  passkeys,
  projects,
  sessions,
  users,
  verificationCodes,
} from "../../db/schema";

/** Every table a refused call could have touched; sessions and throttling counters change by design. */
const SNAPSHOT_TABLES = [
  users,
  organizations,
  organizationMembers,
  projects,
  invitations,
  apiKeys,
  verificationCodes,
  oauthAccounts,
  passkeys,
];

async function snapshot(testApp: TestApp): Promise<string> {
  const parts: string[] = [];
  for (const table of SNAPSHOT_TABLES) {
    const name = getTableName(table);
    const result = await testApp.database.db.execute(sql.raw(`select * from "${name}" order by 1, 2`));
    parts.push(`${name}:${JSON.stringify((result as unknown as { rows: unknown[] }).rows)}`);
  }
  // Which sessions exist (not when they were last seen, which any call may move).
  const liveSessions = await testApp.database.db
    .select({ id: sessions.id })
    .from(sessions)
    .orderBy(sessions.id);
  parts.push(`sessions:${JSON.stringify(liveSessions)}`);
  return parts.join("\n");
}

/** Request fields that carry an id of something a tenant owns. */
const ID_FIELDS = [
  "invoiceId",
  "organizationId",
  "projectId",
  "invitationId",
  "apiKeyId",
  "memberUserId",
  "userIdToRemove",
  "newOwnerUserId",
  "sessionId",
  "passkeyId",
];

describe("authorization", () => {
  let testApp: TestApp;
  let registeredSessionCalls: typeof allCalls;

  // Owner A with a second member M (no permissions at all), an invitation and a key; stranger B elsewhere.
  const world = {} as {
    owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
    member: Awaited<ReturnType<typeof signUpAndConfirm>>;
    /** Every right and every project, but not the playground. */
    nonPlayer: Awaited<ReturnType<typeof signUpAndConfirm>>;
    stranger: Awaited<ReturnType<typeof signUpAndConfirm>>;
    organizationId: string;
    projectId: string;
    invitationId: string;
    apiKeyId: string;
    strangerProjectId: string;
    invoiceNumber: string;
    ownerSessionId: string;
    ownerPasskeyId: string;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    await testApp.app.ready();
    registeredSessionCalls = allCalls.filter(
      (call) => call.auth === "session" && testApp.app.hasRoute({ method: "POST", url: call.path }),
    );
    world.owner = await signUpAndConfirm(testApp);
    world.organizationId = world.owner.userInfo.organizations[0].id;
    world.projectId = world.owner.userInfo.organizations[0].projects[0].id;
    const memberEmail = uniqueEmail("member");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId: world.organizationId, emailList: memberEmail, permissions: emptyPermissions() },
      { session: world.owner.session },
    );
    const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === memberEmail);
    const memberInvitation = mail?.text.match(/invitation=([0-9a-f-]{36})/)?.[1] ?? "";
    world.member = await signUpAndConfirm(testApp, { email: memberEmail });
    await post(
      testApp,
      "/v1/users/organization-members/confirm-invitation",
      { invitationId: memberInvitation, confirmed: true },
      { session: world.member.session },
    );
    const pendingEmail = uniqueEmail("pending");
    await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId: world.organizationId, emailList: pendingEmail, permissions: emptyPermissions() },
      { session: world.owner.session },
    );
    const pendingMail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === pendingEmail);
    world.invitationId = pendingMail?.text.match(/invitation=([0-9a-f-]{36})/)?.[1] ?? "";
    world.apiKeyId = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: world.projectId, apiKeyName: "A's key" },
        { session: world.owner.session },
      )
    ).json().apiKey.id;
    await addSandboxCard(testApp, world.owner.session, world.organizationId);
    await post(
      testApp,
      "/v1/payments/recharge-account",
      { organizationId: world.organizationId, amount: 20 },
      { session: world.owner.session },
    );
    world.invoiceNumber = (
      await post(
        testApp,
        "/v1/users/invoices/get",
        { organizationId: world.organizationId, page: 1 },
        { session: world.owner.session },
      )
    ).json().invoices[0].invoiceId;
    const allButPlayground = fullPermissions(false);
    allButPlayground.organization.playground = false;
    world.nonPlayer = await addMember(testApp, world.owner.session, world.organizationId, allButPlayground);
    world.stranger = await signUpAndConfirm(testApp);
    world.strangerProjectId = world.stranger.userInfo.organizations[0].projects[0].id;
    const [ownerSession] = await testApp.database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, world.owner.userInfo.id))
      .limit(1);
    world.ownerSessionId = ownerSession?.id ?? "";
    // Registering needs an authenticator (the e2e journey has one); the row is all this suite needs.
    const [ownerPasskey] = await testApp.database.db
      .insert(passkeys)
      .values({
        userId: world.owner.userInfo.id,
        name: "A's key",
        credentialId: "owner-credential",
        publicKey: "AA",
      })
      .returning({ id: passkeys.id });
    world.ownerPasskeyId = ownerPasskey?.id ?? "";
  });

  afterAll(async () => {
    await testApp?.close();
  });

  /**
   * Each call that names something a tenant owns, with a payload aimed at owner A's things. `member`
   * says whether M (a member with no permissions) must be refused too.
   */
  const matrix: Record<string, { payload: () => object; memberRefused: boolean }[]> = {
    "/v1/users/organizations/update-name": [
      { payload: () => ({ organizationId: world.organizationId, name: "Taken over" }), memberRefused: true },
    ],
    "/v1/users/organizations/delete": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/users/organizations/change-owner": [
      {
        payload: () => ({ organizationId: world.organizationId, newOwnerUserId: world.member.userInfo.id }),
        memberRefused: true,
      },
    ],
    "/v1/users/organization-members/list": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: false },
    ],
    "/v1/users/organization-members/invite": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          emailList: "x@example.com",
          permissions: emptyPermissions(),
        }),
        memberRefused: true,
      },
    ],
    "/v1/users/organization-members/confirm-invitation": [
      { payload: () => ({ invitationId: world.invitationId, confirmed: true }), memberRefused: true },
    ],
    "/v1/users/organization-members/revoke-invitation": [
      {
        payload: () => ({ organizationId: world.organizationId, invitationId: world.invitationId }),
        memberRefused: true,
      },
    ],
    "/v1/users/organization-members/remove": [
      {
        payload: () => ({ organizationId: world.organizationId, userIdToRemove: world.owner.userInfo.id }),
        memberRefused: true,
      },
    ],
    "/v1/users/organization-members/edit-permissions": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          memberUserId: world.member.userInfo.id,
          permissions: {
            ...emptyPermissions(),
            organization: { general: true, billing: true, payments: true, invoices: true, playground: true },
          },
        }),
        memberRefused: true,
      },
    ],
    "/v1/users/projects/create": [
      { payload: () => ({ organizationId: world.organizationId, name: "Intruder" }), memberRefused: true },
    ],
    "/v1/users/projects/update": [
      { payload: () => ({ projectId: world.projectId, name: "Intruder" }), memberRefused: true },
    ],
    "/v1/users/projects/delete": [{ payload: () => ({ projectId: world.projectId }), memberRefused: true }],
    "/v1/users/api-keys/list": [{ payload: () => ({ projectId: world.projectId }), memberRefused: true }],
    "/v1/users/api-keys/insert": [
      { payload: () => ({ projectId: world.projectId, apiKeyName: "Intruder" }), memberRefused: true },
    ],
    "/v1/users/api-keys/update": [
      {
        payload: () => ({ projectId: world.projectId, apiKeyId: world.apiKeyId, apiKeyName: "Intruder" }),
        memberRefused: true,
      },
      // The stranger's own project with A's key id: the key must belong to the named project.
      {
        payload: () => ({
          projectId: world.strangerProjectId,
          apiKeyId: world.apiKeyId,
          apiKeyName: "Intruder",
        }),
        memberRefused: true,
      },
    ],
    "/v1/users/organizations/update-billing": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          billingName: "Intruder",
          billingEmail: "intruder@example.com",
          address: "x",
          city: "x",
          state: "x",
          zipCode: "x",
          country: "US",
        }),
        memberRefused: true,
      },
    ],
    "/v1/payments/get-payment-info": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/payments/start-setup-payment": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/payments/finish-setup-payment": [
      {
        payload: () => ({ organizationId: world.organizationId, setupIntentId: "seti_sbx_unknown" }),
        memberRefused: true,
      },
    ],
    "/v1/payments/delete-payment": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/payments/update-auto-recharge": [
      {
        payload: () => ({ organizationId: world.organizationId, enabled: true, threshold: 20, amount: 20 }),
        memberRefused: true,
      },
    ],
    "/v1/payments/recharge-account": [
      { payload: () => ({ organizationId: world.organizationId, amount: 20 }), memberRefused: true },
    ],
    "/v1/users/playground/get-requests": [
      {
        payload: () => ({ endpoint: "/v1/images/background-removal", projectId: world.projectId, offset: 0 }),
        memberRefused: true,
      },
    ],
    "/v1/users/playground/delete-request": [
      { payload: () => ({ projectId: world.projectId, requestId: world.apiKeyId }), memberRefused: true },
    ],
    "/v1/users/playground/get-trained-identities": [
      { payload: () => ({ projectId: world.projectId, offset: 0 }), memberRefused: true },
    ],
    "/v1/users/invoices/retrieve-link": [
      { payload: () => ({ invoiceId: world.invoiceNumber }), memberRefused: true },
    ],
    "/v1/users/invoices/get": [
      { payload: () => ({ organizationId: world.organizationId, page: 1 }), memberRefused: true },
    ],
    // Another user's session is not yours to end (the snapshot lists the sessions for this).
    "/v1/users/sessions/revoke": [
      { payload: () => ({ sessionId: world.ownerSessionId }), memberRefused: true },
    ],
    "/v1/users/passkeys/remove": [
      { payload: () => ({ passkeyId: world.ownerPasskeyId }), memberRefused: true },
    ],
    "/v1/users/api-keys/delete": [
      { payload: () => ({ projectId: world.projectId, apiKeyId: world.apiKeyId }), memberRefused: true },
      {
        payload: () => ({ projectId: world.strangerProjectId, apiKeyId: world.apiKeyId }),
        memberRefused: true,
      },
    ],
  };

  it("covers every registered call that takes a tenant's id", () => {
    const idTaking = registeredSessionCalls
      .filter((call) => {
        const shape = (call.request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
        return ID_FIELDS.some((field) => field in shape);
      })
      .map((call) => call.path);
    expect(idTaking.filter((path) => !(path in matrix))).toEqual([]);
  });

  it("answers 401 to every session call without a session", async () => {
    for (const call of registeredSessionCalls) {
      const response = await post(testApp, call.path, {});
      expect(response.statusCode, call.path).toBe(401);
      expect(response.json().error, call.path).toBe("unauthenticated");
    }
  });

  it("refuses another organization's user with 403/404 and changes nothing", async () => {
    for (const [path, cases] of Object.entries(matrix)) {
      for (const { payload } of cases) {
        const before = await snapshot(testApp);
        const response = await post(testApp, path, payload(), { session: world.stranger.session });
        expect([403, 404], `${path} ${response.body}`).toContain(response.statusCode);
        expect(await snapshot(testApp), path).toBe(before);
      }
    }
  });

  it("refuses a member lacking the permission with 403/404 and changes nothing", async () => {
    for (const [path, cases] of Object.entries(matrix)) {
      for (const { payload, memberRefused } of cases) {
        if (!memberRefused) continue;
        const before = await snapshot(testApp);
        const response = await post(testApp, path, payload(), { session: world.member.session });
        expect([403, 404, 409], `${path} ${response.body}`).toContain(response.statusCode);
        expect(await snapshot(testApp), path).toBe(before);
      }
    }
  });

  /** The playground's calls, which need `organization.playground` besides access to the project. */
  const PLAYGROUND_CALLS = [
    "/v1/users/playground/get-requests",
    "/v1/users/playground/delete-request",
    "/v1/users/playground/get-trained-identities",
  ];

  it("refuses the playground's calls to a member with the project but without the playground right", async () => {
    for (const path of PLAYGROUND_CALLS) {
      for (const { payload } of matrix[path] ?? []) {
        const before = await snapshot(testApp);
        const response = await post(testApp, path, payload(), { session: world.nonPlayer.session });
        expect(response.statusCode, `${path} ${response.body}`).toBe(403);
        expect(response.json().error, path).toBe("forbidden");
        expect(await snapshot(testApp), path).toBe(before);
      }
    }
    // Every playground call of the contract is in the list above.
    const playgroundPaths = registeredSessionCalls
      .map((call) => call.path)
      .filter((path) => path.startsWith("/v1/users/playground/") && path in matrix);
    expect(playgroundPaths.sort()).toEqual([...PLAYGROUND_CALLS].sort());
  });

  it("answers 404, not 500, for ids that are not ids", async () => {
    for (const path of Object.keys(matrix)) {
      const payload = Object.fromEntries(
        Object.entries(matrix[path]?.[0]?.payload() ?? {}).map(([key, value]) => [
          key,
          ID_FIELDS.includes(key) ? "'; drop table users; --" : value,
        ]),
      );
      const response = await post(testApp, path, payload, { session: world.owner.session });
      expect([400, 404], `${path} ${response.body}`).toContain(response.statusCode);
    }
  });
});
