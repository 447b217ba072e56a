import { randomUUID } from "node:crypto";
import {
  AUDIT_EXPORT_PATH,
  allCalls,
  type CallAccess,
  type CallPermission,
  emptyPermissions,
  fullPermissions,
  idSchema,
  PERMISSION_PATHS,
  PLAYGROUND_ACCESS_REFUSED,
  PROJECT_ACCESS_REFUSED,
  permissionsWithRights,
  REAUTHENTICATION_WINDOW_MS,
  TENANT_SCOPES,
  USAGE_EXPORT_PATH,
  USAGE_PATH,
  USAGE_SUMMARY_EXPORT_PATH,
} from "@prism/contract";
import { eq, getTableName, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { addMember } from "../../../test/members";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import {
  alertSettings,
  apiKeys,
  auditLog,
  callWebhookSecrets,
  featureRequests,
  invitations,
  oauthAccounts,
  organizationMembers,
  organizations,
  passkeys,
  projects,
  sessions,
  users,
  verificationCodes,
  webhookDeliveries,
  webhookEndpoints,
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
  webhookEndpoints,
  webhookDeliveries,
  callWebhookSecrets,
  featureRequests,
  alertSettings,
  // A refused call records nothing either.
  auditLog,
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

function requestShape(call: (typeof allCalls)[number]): Record<string, unknown> {
  return (call.request as unknown as { shape?: Record<string, unknown> }).shape ?? {};
}

/**
 * Request fields that carry an id of something (derived from the contract: a field of the id schema,
 * or named `…Id`), and those that carry a list of ids (`…Ids`).
 */
const ID_FIELDS = [
  ...new Set(
    allCalls.flatMap((call) =>
      Object.entries(requestShape(call))
        .filter(([name, schema]) => schema === idSchema || name.endsWith("Id"))
        .map(([name]) => name),
    ),
  ),
];
const ID_LIST_FIELDS = [
  ...new Set(
    allCalls.flatMap((call) => Object.keys(requestShape(call)).filter((name) => name.endsWith("Ids"))),
  ),
];

/** The texts of the declared-access gate's refusals (a handler's own 403 says something else). */
const GATE_REFUSALS = [
  "You do not have permission to do this in this organization.",
  "Only the owner of the organization can do this.",
  PROJECT_ACCESS_REFUSED,
  PLAYGROUND_ACCESS_REFUSED,
];

const isTenantScoped = (access: CallAccess) => (TENANT_SCOPES as readonly string[]).includes(access.scope);
const declaredPermission = (access: CallAccess): CallPermission | undefined =>
  "permission" in access ? access.permission : undefined;
/** The rights one alone can hold: every path of the tree but `projects.all`. */
const SINGLE_RIGHTS = PERMISSION_PATHS.filter((path) => path !== "projects.all");

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
    apiKey: string;
    strangerApiKey: string;
    requestId: string;
    ownerSessionId: string;
    ownerPasskeyId: string;
    endpointId: string;
    deliveryId: string;
    /** A second project of A's organization. */
    projectBId: string;
    /** One member per right, holding that right alone (and project A, to name a project at all). */
    singleRight: Map<string, Awaited<ReturnType<typeof signUpAndConfirm>>>;
    /** Every right, but only project A. */
    projectAOnly: Awaited<ReturnType<typeof signUpAndConfirm>>;
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
    const ownerKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: world.projectId, apiKeyName: "A's key" },
        { session: world.owner.session },
      )
    ).json().apiKey;
    world.apiKeyId = ownerKey.id;
    world.apiKey = ownerKey.content;
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
    world.strangerApiKey = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: world.strangerProjectId, apiKeyName: "B's key" },
        { session: world.stranger.session },
      )
    ).json().apiKey.content;
    world.requestId = randomUUID();
    await testApp.database.db.insert(featureRequests).values({
      id: world.requestId,
      organizationId: world.organizationId,
      projectId: world.projectId,
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      status: "done",
      provider: "http",
      requestFiles: {},
      requestBody: {},
      units: 1,
      priceMicros: 10_000n,
    });
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
    const created = await post(
      testApp,
      "/v1/organizations/webhooks/insert",
      {
        organizationId: world.organizationId,
        url: "https://receiver.example.com/hook",
        events: ["request.failed"],
      },
      { session: world.owner.session },
    );
    world.endpointId = created.json().endpoint.id;
    await post(
      testApp,
      "/v1/organizations/webhooks/send-test",
      { organizationId: world.organizationId, endpointId: world.endpointId },
      { session: world.owner.session },
    );
    const [delivery] = await testApp.database.db.select({ id: webhookDeliveries.id }).from(webhookDeliveries);
    world.deliveryId = delivery?.id ?? "";
    world.projectBId = (
      await post(
        testApp,
        "/v1/users/projects/create",
        { organizationId: world.organizationId, name: "B" },
        { session: world.owner.session },
      )
    ).json().id;
    const projectIds = [world.projectId, world.projectBId];
    const onlyProjectA = (rights: readonly (typeof SINGLE_RIGHTS)[number][]) => {
      const permissions = permissionsWithRights(rights, projectIds);
      permissions.projects[world.projectId] = true;
      return permissions;
    };
    world.singleRight = new Map();
    for (const right of SINGLE_RIGHTS) {
      world.singleRight.set(
        right,
        await addMember(testApp, world.owner.session, world.organizationId, onlyProjectA([right])),
      );
    }
    world.projectAOnly = await addMember(
      testApp,
      world.owner.session,
      world.organizationId,
      onlyProjectA(SINGLE_RIGHTS),
    );
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
    "/v1/users/organizations/update-security": [
      {
        payload: () => ({ organizationId: world.organizationId, requireTwoFactor: true }),
        memberRefused: true,
      },
    ],
    "/v1/users/audit-log/list": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
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
      // Widening a key's limits is refused like renaming it.
      {
        payload: () => ({
          projectId: world.projectId,
          apiKeyId: world.apiKeyId,
          apiKeyName: "Intruder",
          limits: {
            endpoints: null,
            monthlySpendCap: null,
            lifetimeSpendCap: null,
            expiresAt: null,
            allowedIps: null,
            requestsPerMinute: null,
          },
        }),
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
    "/v1/payments/get-alerts": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/payments/update-alerts": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          lowBalance: 5,
          monthlyBudget: 1,
          budgetHardStop: true,
        }),
        memberRefused: true,
      },
    ],
    // Webhooks are the owner's: even a member with every right is refused (see decision 012).
    "/v1/organizations/webhooks/list": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/organizations/webhooks/insert": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          url: "https://intruder.example.com/",
          events: ["payment.succeeded"],
        }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/update": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          endpointId: world.endpointId,
          url: "https://intruder.example.com/",
          events: ["payment.succeeded"],
          enabled: true,
        }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/delete": [
      {
        payload: () => ({ organizationId: world.organizationId, endpointId: world.endpointId }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/deliveries": [
      {
        payload: () => ({ organizationId: world.organizationId, endpointId: world.endpointId }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/resend": [
      {
        payload: () => ({
          organizationId: world.organizationId,
          endpointId: world.endpointId,
          deliveryId: world.deliveryId,
        }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/send-test": [
      {
        payload: () => ({ organizationId: world.organizationId, endpointId: world.endpointId }),
        memberRefused: true,
      },
    ],
    "/v1/organizations/webhooks/call-secret": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/organizations/webhooks/rotate-call-secret": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
    ],
    "/v1/organizations/webhooks/call-deliveries": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: true },
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
    "/v1/users/api-keys/details": [
      { payload: () => ({ projectId: world.projectId, apiKeyId: world.apiKeyId }), memberRefused: true },
      // The stranger's own project with A's key id: the key must belong to the named project.
      {
        payload: () => ({ projectId: world.strangerProjectId, apiKeyId: world.apiKeyId }),
        memberRefused: true,
      },
    ],
    // Another user's session is not yours to end (the snapshot lists the sessions for this).
    "/v1/users/sessions/revoke": [
      { payload: () => ({ sessionId: world.ownerSessionId }), memberRefused: true },
    ],
    "/v1/users/passkeys/remove": [
      { payload: () => ({ passkeyId: world.ownerPasskeyId }), memberRefused: true },
    ],
    "/v1/users/requests/list": [
      {
        payload: () => ({ organizationId: world.organizationId, projectIds: [world.projectId] }),
        memberRefused: true,
      },
      {
        payload: () => ({
          organizationId: world.organizationId,
          projectIds: [world.projectId],
          apiKeyId: world.apiKeyId,
        }),
        memberRefused: true,
      },
      // The stranger's own organization with A's project among theirs: every project must be the caller's.
      {
        payload: () => ({
          organizationId: world.stranger.userInfo.organizations[0].id,
          projectIds: [world.strangerProjectId, world.projectId],
        }),
        memberRefused: true,
      },
    ],
    // Any member may read the checklist: the member has no rights at all and is still let in.
    "/v1/users/organizations/first-steps": [
      { payload: () => ({ organizationId: world.organizationId }), memberRefused: false },
    ],
    "/v1/users/requests/get": [
      {
        payload: () => ({ organizationId: world.organizationId, requestId: world.requestId }),
        memberRefused: true,
      },
      // The stranger's own organization with A's call: the call must be of the named organization.
      {
        payload: () => ({
          organizationId: world.stranger.userInfo.organizations[0].id,
          requestId: world.requestId,
        }),
        memberRefused: true,
      },
    ],
    "/v1/users/api-keys/delete": [
      { payload: () => ({ projectId: world.projectId, apiKeyId: world.apiKeyId }), memberRefused: true },
      {
        payload: () => ({ projectId: world.strangerProjectId, apiKeyId: world.apiKeyId }),
        memberRefused: true,
      },
    ],
  };

  it("has every call of the contract declare its access, consistently with its auth", () => {
    for (const call of allCalls) {
      // A call without a declaration fails here (and in the type check: `access` is required).
      expect(call.access, call.path).toBeDefined();
      expect(call.access.scope === "public", call.path).toBe(call.auth === "public");
    }
  });

  it("covers every registered call its declaration scopes to a tenant, and only those or the caller's own", () => {
    const tenantScoped = registeredSessionCalls.filter((call) => isTenantScoped(call.access));
    expect(tenantScoped.map((call) => call.path).filter((path) => !(path in matrix))).toEqual([]);
    for (const path of Object.keys(matrix)) {
      const call = allCalls.find((candidate) => candidate.path === path);
      expect(call && call.auth === "session", path).toBe(true);
      // Whatever else the matrix holds is the caller's own (their sessions, passkeys, invitations).
      if (call && !isTenantScoped(call.access)) expect(call.access.scope, path).toBe("account");
      // A call that declares a right beyond membership refuses the member holding none.
      if (call && declaredPermission(call.access) !== "member") {
        expect(
          matrix[path]?.every((entry) => entry.memberRefused),
          path,
        ).toBe(true);
      }
    }
  });

  it("names every id field (derived from the contract) in the matrix's id check", () => {
    expect(ID_FIELDS).toEqual(
      expect.arrayContaining(["organizationId", "projectId", "requestId", "setupIntentId"]),
    );
    expect(ID_LIST_FIELDS).toContain("projectIds");
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

  it("refuses every sensitive call to the owner's own session once its sign-in proof is older than the window, and changes nothing", async () => {
    // Derived from the contract (requiresReauthentication), like the 401 test above.
    const sensitive = registeredSessionCalls.filter((call) => call.requiresReauthentication);
    expect(sensitive.map((call) => call.path)).toContain("/v1/users/organizations/delete");
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(Date.now() + REAUTHENTICATION_WINDOW_MS + 60_000);
    try {
      for (const call of sensitive) {
        // The owner's own ids: without the check, each of these would go through.
        const payload = matrix[call.path]?.[0]?.payload() ?? {};
        const before = await snapshot(testApp);
        const response = await post(testApp, call.path, payload, { session: world.owner.session });
        expect(response.statusCode, `${call.path} ${response.body}`).toBe(403);
        expect(response.json().error, call.path).toBe("reauthentication-required");
        expect(await snapshot(testApp), call.path).toBe(before);
      }
    } finally {
      vi.useRealTimers();
    }
  });

  /** The playground's calls, which need `organization.playground` besides access to the project. */
  const PLAYGROUND_CALLS = allCalls
    .filter((call) => declaredPermission(call.access) === "organization.playground")
    .map((call) => call.path);

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

  /** The GET routes of usage (issue 18): two for API keys, two CSV exports for the console. */
  const month = new Date().toISOString().slice(0, 7);
  const API_KEY_GETS = [
    { url: () => `${USAGE_PATH}?start=2026-01-01&end=2026-01-31&group_by=day`, ownOnly: false },
  ];
  const EXPORT_GETS = [
    (projectIds: string) => `${USAGE_EXPORT_PATH}?month=${month}&projectIds=${projectIds}`,
    (projectIds: string) => `${USAGE_SUMMARY_EXPORT_PATH}?month=${month}&projectIds=${projectIds}`,
  ];
  const get = (url: string, options: { key?: string; session?: string } = {}) =>
    testApp.app.inject({
      method: "GET",
      url,
      headers: options.key ? { authorization: `Bearer ${options.key}` } : {},
      ...(options.session ? { cookies: { prism_session: options.session } } : {}),
    });

  it("registers every usage GET route listed here", () => {
    for (const path of [USAGE_PATH, USAGE_EXPORT_PATH, USAGE_SUMMARY_EXPORT_PATH]) {
      expect(testApp.app.hasRoute({ method: "GET", url: path }), path).toBe(true);
    }
  });

  it("answers 401 to the API key routes without a valid key, and 404 to another project's key", async () => {
    for (const { url, ownOnly } of API_KEY_GETS) {
      for (const options of [{}, { key: "psk_notakey" }, { session: world.owner.session }]) {
        const response = await get(url(), options);
        expect(response.statusCode, `${url()} ${response.body}`).toBe(401);
      }
      expect((await get(url(), { key: world.apiKey })).statusCode, url()).toBe(200);
      const foreign = await get(url(), { key: world.strangerApiKey });
      if (ownOnly) {
        expect(foreign.statusCode, url()).toBe(404);
        expect(foreign.json().error).toBe("not-found");
      } else {
        // The usage API has no id to aim at: a key only ever reads its own project.
        expect(foreign.json().buckets).toEqual([]);
      }
    }
  });

  /**
   * One call followed or canceled (issue 29): with an API key, the key's project's calls; with a
   * session, the calls of the project in the project header, for members with the playground right.
   */
  it("follows and cancels a call only for its project's keys and playground users", async () => {
    const routes = [
      { method: "GET" as const, url: () => `/v1/requests/${world.requestId}` },
      { method: "POST" as const, url: () => `/v1/requests/${world.requestId}/cancel` },
    ];
    for (const route of routes) {
      expect(
        testApp.app.hasRoute({ method: route.method, url: route.url().replace(world.requestId, ":id") }),
      ).toBe(true);
      const send = (headers: Record<string, string>, session?: string) =>
        testApp.app.inject({
          method: route.method,
          url: route.url(),
          headers: { ...SAME_ORIGIN, ...headers },
          ...(session ? { cookies: { prism_session: session } } : {}),
        });
      const before = await snapshot(testApp);
      expect((await send({})).statusCode, route.url()).toBe(401);
      expect((await send({ authorization: "Bearer psk_notakey" })).statusCode, route.url()).toBe(401);
      const foreignKey = await send({ authorization: `Bearer ${world.strangerApiKey}` });
      expect(foreignKey.statusCode, route.url()).toBe(404);
      const foreignSession = await send(
        { "x-authorization-project": world.projectId },
        world.stranger.session,
      );
      expect([403, 404], foreignSession.body).toContain(foreignSession.statusCode);
      const strangerProject = await send(
        { "x-authorization-project": world.strangerProjectId },
        world.stranger.session,
      );
      expect(strangerProject.statusCode, strangerProject.body).toBe(404);
      const nonPlayer = await send({ "x-authorization-project": world.projectId }, world.nonPlayer.session);
      expect(nonPlayer.statusCode, nonPlayer.body).toBe(403);
      expect(await snapshot(testApp), route.url()).toBe(before);
    }
    const own = await testApp.app.inject({
      method: "GET",
      url: `/v1/requests/${world.requestId}`,
      headers: { authorization: `Bearer ${world.apiKey}` },
    });
    expect(own.statusCode, own.body).toBe(200);
    const ownSession = await testApp.app.inject({
      method: "GET",
      url: `/v1/requests/${world.requestId}`,
      headers: { "x-authorization-project": world.projectId },
      cookies: { prism_session: world.owner.session },
    });
    expect(ownSession.statusCode, ownSession.body).toBe(200);
  });

  it("shows the audit log's CSV export to its readers only", async () => {
    const url = `${AUDIT_EXPORT_PATH}?organizationId=${world.organizationId}`;
    expect((await get(url)).statusCode).toBe(401);
    expect((await get(url, { key: world.apiKey })).statusCode).toBe(401);
    expect((await get(url, { session: world.owner.session })).statusCode).toBe(200);
    expect((await get(url, { session: world.stranger.session })).statusCode).toBe(404);
    const member = await get(url, { session: world.member.session });
    expect(member.statusCode, member.body).toBe(403);
    const notAnId = await get(`${AUDIT_EXPORT_PATH}?organizationId=x'--`, { session: world.owner.session });
    expect([400, 404]).toContain(notAnId.statusCode);
  });

  it("refuses the CSV exports without a session, and with 404 to strangers and members without the project", async () => {
    for (const url of EXPORT_GETS) {
      const own = url(world.projectId);
      expect((await get(own)).statusCode, own).toBe(401);
      expect((await get(own, { key: world.apiKey })).statusCode, own).toBe(401);
      const allowed = await get(own, { session: world.owner.session });
      expect(allowed.statusCode, own).toBe(200);
      expect(allowed.headers["content-type"]).toContain("text/csv");
      for (const session of [world.stranger.session, world.member.session]) {
        const refused = await get(own, { session });
        expect([403, 404], `${own} ${refused.body}`).toContain(refused.statusCode);
      }
      // As with the statistics, a foreign project among the caller's own is left out.
      const mixed = await get(url(`${world.strangerProjectId},${world.projectId}`), {
        session: world.owner.session,
      });
      expect(mixed.statusCode, mixed.body).toBe(200);
      expect(mixed.body).not.toContain(world.strangerProjectId);
      const notAnId = await get(url("'; drop table users; --"), { session: world.owner.session });
      expect([400, 404], notAnId.body).toContain(notAnId.statusCode);
    }
  });

  it("answers 404, not 500, for ids that are not ids", async () => {
    for (const path of Object.keys(matrix)) {
      const payload = Object.fromEntries(
        Object.entries(matrix[path]?.[0]?.payload() ?? {}).map(([key, value]) => [
          key,
          ID_FIELDS.includes(key)
            ? "'; drop table users; --"
            : ID_LIST_FIELDS.includes(key)
              ? ["'; drop table users; --"]
              : value,
        ]),
      );
      const response = await post(testApp, path, payload, { session: world.owner.session });
      expect([400, 404], `${path} ${response.body}`).toContain(response.statusCode);
    }
  });

  /** The matrix's calls with their declarations, first payload aimed at A's things. */
  const declaredCalls = () =>
    Object.keys(matrix).flatMap((path) => {
      const call = allCalls.find((candidate) => candidate.path === path);
      const payload = matrix[path]?.[0]?.payload;
      return call && payload && isTenantScoped(call.access) ? [{ call, payload }] : [];
    });

  it("least privilege: a member holding one right alone is refused every call declaring another, and changes nothing", async () => {
    let refusals = 0;
    for (const { call, payload } of declaredCalls()) {
      const needed = declaredPermission(call.access);
      if (needed === undefined || needed === "member") continue;
      // One snapshot around all the refused members of a call: any change by any of them shows.
      const before = await snapshot(testApp);
      for (const [right, member] of world.singleRight) {
        if (right === needed) continue;
        const response = await post(testApp, call.path, payload(), { session: member.session });
        expect(response.statusCode, `${call.path} as ${right} alone: ${response.body}`).toBe(403);
        refusals += 1;
      }
      expect(await snapshot(testApp), call.path).toBe(before);
    }
    expect(refusals).toBeGreaterThan(100);
  }, 180_000);

  it("a member of project A only is refused every project-scoped call aimed at project B, and changes nothing", async () => {
    const projectScoped = declaredCalls().filter(
      ({ call }) => call.access.scope === "project" || call.access.scope === "organization-projects",
    );
    expect(projectScoped.length).toBeGreaterThanOrEqual(9);
    for (const { call, payload } of projectScoped) {
      const aimedAtB = Object.fromEntries(
        Object.entries(payload()).map(([key, value]) => [
          key,
          key === "projectId" ? world.projectBId : key === "projectIds" ? [world.projectBId] : value,
        ]),
      );
      const before = await snapshot(testApp);
      const response = await post(testApp, call.path, aimedAtB, { session: world.projectAOnly.session });
      expect(response.statusCode, `${call.path} ${response.body}`).toBe(403);
      expect(GATE_REFUSALS, call.path).toContain(response.json().message);
      expect(await snapshot(testApp), call.path).toBe(before);
    }
  });

  // Last: the calls let through go ahead and change A's things.
  it("least privilege: the one right a call declares is enough to pass its gate", async () => {
    let passed = 0;
    for (const { call, payload } of declaredCalls()) {
      const needed = declaredPermission(call.access);
      if (needed === undefined || needed === "member" || needed === "owner") continue;
      const member = world.singleRight.get(needed);
      expect(member, call.path).toBeDefined();
      const response = await post(testApp, call.path, payload(), { session: member?.session ?? "" });
      // The handler may still refuse for its own reasons (a grant beyond the member's rights, a key
      // already deleted by an earlier call here), never with the gate's refusal.
      expect(response.statusCode, `${call.path} ${response.body}`).not.toBe(401);
      if (response.statusCode === 403) {
        expect(GATE_REFUSALS, `${call.path} ${response.body}`).not.toContain(response.json().message);
      }
      passed += 1;
    }
    expect(passed).toBeGreaterThan(15);
  });
});
