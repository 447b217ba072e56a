import { randomUUID } from "node:crypto";
import {
  AUDIT_EXPORT_COLUMNS,
  AUDIT_EXPORT_PATH,
  AUDIT_PAGE_SIZE,
  type AuditAction,
  type AuditEntry,
  allCalls,
  emptyPermissions,
  REQUIRE_TWO_FACTOR_OWNER_FIRST,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_ENROLMENT_REQUIRED,
} from "@prism/contract";
import { parse } from "csv-parse/sync";
import { and, count, eq, sql } from "drizzle-orm";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { addMember, invitationIdFor, permissionsWith } from "../../../test/members";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { auditLog, featureRequests, organizationMembers } from "../../db/schema";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { recordAudit } from "./audit.store";

type Account = Awaited<ReturnType<typeof signUpAndConfirm>>;

/**
 * Calls that change no organization's state, each with the reason. Every other call of the contract
 * must write an audit entry (the scenarios below); a new call fails the first test until it is put
 * in one list or the other.
 */
const NOT_AUDITED: Record<string, string> = {
  // Reads.
  "/v1/public-config": "read",
  "/v1/users/me": "read",
  "/v1/users/organization-members/check-invitation": "read",
  "/v1/users/organization-members/list": "read",
  "/v1/users/api-keys/list": "read",
  "/v1/users/api-keys/details": "read",
  "/v1/payments/get-payment-info": "read",
  "/v1/users/invoices/get": "read",
  "/v1/users/invoices/retrieve-link": "read",
  "/v1/users/playground/feature-status": "read",
  "/v1/users/playground/get-requests": "read",
  "/v1/users/playground/get-trained-identities": "read",
  "/v1/users/statistics/get": "read",
  "/v1/users/audit-log/list": "read",
  "/v1/users/two-factor/status": "read",
  "/v1/users/sessions/list": "read",
  "/v1/users/passkeys/list": "read",
  "/v1/users/requests/list": "read",
  "/v1/users/requests/get": "read",
  "/v1/users/organizations/first-steps": "read",
  "/v1/organizations/webhooks/list": "read",
  "/v1/organizations/webhooks/deliveries": "read",
  "/v1/organizations/webhooks/call-deliveries": "read",
  // Shows the per-call secret (made on first use, no setting the owner chose).
  "/v1/organizations/webhooks/call-secret": "read",
  "/v1/payments/get-alerts": "read",
  // Send an existing event (or a test event) again: no setting changes, and the endpoint's delivery
  // log records each try.
  "/v1/organizations/webhooks/resend": "delivery log",
  "/v1/organizations/webhooks/send-test": "delivery log",
  // The user's own account and sessions: no organization's state (sign-in, profile, password, second
  // factors, devices). Sign-up is audited through the organization it creates.
  "/v1/users/login": "own account",
  "/v1/users/confirm": "own account",
  "/v1/users/forgot-password": "own account",
  "/v1/users/reset-password": "own account",
  "/v1/users/google-login-request": "own account",
  "/v1/users/github-login-request": "own account",
  "/v1/users/logout": "own account",
  "/v1/users/logout-all-sessions": "own account",
  "/v1/users/settings/update-profile": "own account",
  "/v1/users/change-password": "own account",
  "/v1/users/two-factor/start": "own account",
  "/v1/users/two-factor/enable": "own account",
  "/v1/users/two-factor/disable": "own account",
  "/v1/users/two-factor/verify": "own account",
  "/v1/users/sessions/revoke": "own account",
  "/v1/users/passkeys/registration-options": "own account",
  "/v1/users/passkeys/register": "own account",
  "/v1/users/passkeys/remove": "own account",
  "/v1/users/passkeys/authentication-options": "own account",
  "/v1/users/passkeys/sign-in": "own account",
  "/v1/users/passkeys/remove-with-link": "own account",
  "/v1/users/two-factor/regenerate-recovery-codes": "own account",
  "/v1/users/reauthentication/options": "own account",
  "/v1/users/reauthenticate": "own account",
  // Starts a card form at the payments provider; nothing is saved until finish-setup-payment (audited).
  "/v1/payments/start-setup-payment": "provider-side only",
  // The sandbox provider's stand-in for the card form hosted by Stripe: the provider's state, not ours.
  "/v1/payments/sandbox/confirm-setup": "provider-side only",
};

function codeAt(secret: string): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) });
}

describe("audit log", () => {
  let testApp: TestApp;
  let owner: Account;
  let organizationId: string;
  let projectId: string;

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await signUpAndConfirm(testApp);
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  async function entriesOf(orgId: string) {
    return testApp.database.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.organizationId, orgId))
      .orderBy(sql`${auditLog.createdAt} desc, ${auditLog.id} desc`);
  }

  async function entryCount(): Promise<number> {
    const [row] = await testApp.database.db.select({ value: count() }).from(auditLog);
    return row?.value ?? 0;
  }

  /** Runs `change`, which must succeed, and returns the entries it wrote to `orgId`, oldest first. */
  async function written(orgId: string, change: () => Promise<{ statusCode: number; body: string }>) {
    const before = new Set((await entriesOf(orgId)).map((entry) => entry.id));
    const response = await change();
    expect(response.statusCode, response.body).toBe(200);
    return (await entriesOf(orgId)).filter((entry) => !before.has(entry.id)).reverse();
  }

  async function enrolTotp(account: Account): Promise<string> {
    const started = await post(testApp, "/v1/users/two-factor/start", {}, { session: account.session });
    const { secret } = started.json() as { secret: string };
    const enabled = await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await codeAt(secret) },
      { session: account.session },
    );
    expect(enabled.statusCode, enabled.body).toBe(200);
    return secret;
  }

  /**
   * One successful call of each state-changing call of the contract, and the actions it must record.
   * Order matters: later scenarios use what earlier ones made.
   */
  const state = {} as {
    member: Account;
    secondOrganizationId: string;
    newProjectId: string;
    apiKeyId: string;
    pendingInvitationId: string;
    webhookEndpointId: string;
  };
  const scenarios: { path: string; run: () => Promise<{ orgId: string; actions: AuditAction[] }> }[] = [
    {
      path: "/v1/users/create",
      run: async () => {
        const account = await signUpAndConfirm(testApp);
        const orgId = account.userInfo.organizations[0].id;
        const [entry] = await entriesOf(orgId);
        expect(entry?.actorUserId).toBe(account.userInfo.id);
        return { orgId, actions: [] };
      },
    },
    {
      path: "/v1/users/organizations/create",
      run: async () => {
        const response = await post(
          testApp,
          "/v1/users/organizations/create",
          { name: "Second" },
          { session: owner.session },
        );
        expect(response.statusCode, response.body).toBe(200);
        state.secondOrganizationId = response.json().id;
        const entries = await entriesOf(state.secondOrganizationId);
        expect(entries[0]).toMatchObject({
          actorUserId: owner.userInfo.id,
          changes: { after: { name: "Second", defaultProject: "Default Project" } },
        });
        return {
          orgId: state.secondOrganizationId,
          actions: entries.map((entry) => entry.action as AuditAction),
        };
      },
    },
    {
      path: "/v1/users/organizations/update-name",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organizations/update-name",
            { organizationId, name: "Renamed" },
            { session: owner.session, remoteAddress: "203.0.113.7" },
          ),
        );
        expect(entries[0]).toMatchObject({
          actorUserId: owner.userInfo.id,
          targetType: "organization",
          targetId: organizationId,
          changes: {
            before: { name: `${owner.userInfo.firstName}'s Organization` },
            after: { name: "Renamed" },
          },
          ip: "203.0.113.7",
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organizations/update-billing",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organizations/update-billing",
            {
              organizationId,
              billingName: "Acme",
              billingEmail: "billing@example.com",
              address: "1 Main St",
              city: "Springfield",
              state: "IL",
              zipCode: "62701",
              country: "US",
            },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes?.after).toMatchObject({ billingName: "Acme", country: "US" });
        expect(entries[0]?.changes?.before).toMatchObject({ billingName: null });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organizations/update-security",
      run: async () => {
        await enrolTotp(owner);
        const entries = await written(state.secondOrganizationId, () =>
          post(
            testApp,
            "/v1/users/organizations/update-security",
            { organizationId: state.secondOrganizationId, requireTwoFactor: true },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toEqual({
          before: { requireTwoFactor: false },
          after: { requireTwoFactor: true },
        });
        return {
          orgId: state.secondOrganizationId,
          actions: entries.map((entry) => entry.action as AuditAction),
        };
      },
    },
    {
      path: "/v1/users/organization-members/invite",
      run: async () => {
        const email = uniqueEmail("pending");
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organization-members/invite",
            { organizationId, emailList: email, permissions: emptyPermissions() },
            { session: owner.session },
          ),
        );
        state.pendingInvitationId = await invitationIdFor(testApp, email);
        expect(entries[0]).toMatchObject({ targetType: "invitation", targetId: state.pendingInvitationId });
        expect(entries[0]?.changes?.after).toMatchObject({ email });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organization-members/revoke-invitation",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organization-members/revoke-invitation",
            { organizationId, invitationId: state.pendingInvitationId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organization-members/confirm-invitation",
      run: async () => {
        const before = (await entriesOf(organizationId)).length;
        state.member = await addMember(testApp, owner.session, organizationId, emptyPermissions());
        const entries = (await entriesOf(organizationId)).slice(0, -before || undefined).reverse();
        expect(entries.map((entry) => entry.action)).toEqual(["member.invited", "member.joined"]);
        // The member joins by their own call: they are its actor.
        expect(entries[1]).toMatchObject({
          actorUserId: state.member.userInfo.id,
          targetId: state.member.userInfo.id,
        });
        return { orgId: organizationId, actions: [] };
      },
    },
    {
      path: "/v1/users/organization-members/edit-permissions",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organization-members/edit-permissions",
            {
              organizationId,
              memberUserId: state.member.userInfo.id,
              permissions: permissionsWith(["organization.billing"]),
            },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toMatchObject({
          before: { permissions: { organization: { billing: false } } },
          after: { permissions: { organization: { billing: true } } },
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/projects/create",
      run: async () => {
        const entries = await written(organizationId, async () => {
          const response = await post(
            testApp,
            "/v1/users/projects/create",
            { organizationId, name: "Second project" },
            { session: owner.session },
          );
          state.newProjectId = response.json().id;
          return response;
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/projects/update",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/projects/update",
            { projectId: state.newProjectId, name: "Renamed project" },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toEqual({
          before: { name: "Second project" },
          after: { name: "Renamed project" },
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/projects/delete",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/projects/delete",
            { projectId: state.newProjectId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/api-keys/insert",
      run: async () => {
        let content = "";
        const entries = await written(organizationId, async () => {
          const response = await post(
            testApp,
            "/v1/users/api-keys/insert",
            { projectId, apiKeyName: "CI" },
            { session: owner.session },
          );
          state.apiKeyId = response.json().apiKey.id;
          content = response.json().apiKey.content;
          return response;
        });
        // Neither the key nor its hash is ever written to the log.
        const text = JSON.stringify(entries);
        expect(text).not.toContain(content);
        expect(text).not.toContain("keyHash");
        expect(entries[0]?.changes?.after).toMatchObject({ name: "CI", lastFour: content.slice(-4) });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/api-keys/update",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/api-keys/update",
            {
              projectId,
              apiKeyId: state.apiKeyId,
              apiKeyName: "CI deploys",
              limits: {
                endpoints: null,
                monthlySpendCap: 25,
                lifetimeSpendCap: null,
                expiresAt: null,
                allowedIps: null,
                requestsPerMinute: null,
              },
            },
            { session: owner.session },
          ),
        );
        expect(entries[1]?.changes).toEqual({
          before: { monthlySpendCap: null },
          after: { monthlySpendCap: 25 },
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/api-keys/delete",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/api-keys/delete",
            { projectId, apiKeyId: state.apiKeyId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/payments/finish-setup-payment",
      run: async () => {
        const before = new Set((await entriesOf(organizationId)).map((entry) => entry.id));
        await addSandboxCard(testApp, owner.session, organizationId);
        const entries = (await entriesOf(organizationId)).filter((entry) => !before.has(entry.id));
        expect(entries.map((entry) => entry.action)).toEqual(["payment-method.added"]);
        expect(entries[0]?.changes?.after).toMatchObject({ brand: "visa", last4: "4242" });
        // Never the card's number.
        expect(JSON.stringify(entries)).not.toContain("4242424242424242");
        return { orgId: organizationId, actions: [] };
      },
    },
    {
      path: "/v1/payments/update-auto-recharge",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/payments/update-auto-recharge",
            { organizationId, enabled: true, threshold: 20, amount: 25 },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes?.after).toMatchObject({ enabled: true, threshold: 20, amount: 25 });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/payments/recharge-account",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/payments/recharge-account",
            { organizationId, amount: 20 },
            { session: owner.session },
          ),
        );
        // The user starts it; the provider's answer is the system's.
        expect(entries[0]).toMatchObject({ actorUserId: owner.userInfo.id });
        expect(entries[1]).toMatchObject({ actorUserId: null, actorApiKeyId: null });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/payments/delete-payment",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(testApp, "/v1/payments/delete-payment", { organizationId }, { session: owner.session }),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/playground/delete-request",
      run: async () => {
        const requestId = randomUUID();
        await testApp.database.db.insert(featureRequests).values({
          id: requestId,
          organizationId,
          projectId,
          endpoint: "/v1/images/background-removal",
          callType: "background-removal",
          status: "done",
          provider: "http",
          requestFiles: {},
          requestBody: {},
          units: 1,
          priceMicros: 10_000n,
        });
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/playground/delete-request",
            { projectId, requestId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/organizations/webhooks/insert",
      run: async () => {
        let secret = "";
        const entries = await written(organizationId, async () => {
          const response = await post(
            testApp,
            "/v1/organizations/webhooks/insert",
            { organizationId, url: "https://hooks.example.com/prism", events: ["request.succeeded"] },
            { session: owner.session },
          );
          state.webhookEndpointId = response.json().endpoint?.id;
          secret = response.json().secret;
          return response;
        });
        // The signing secret is shown once and never logged.
        expect(JSON.stringify(entries)).not.toContain(secret);
        expect(entries[0]?.changes?.after).toEqual({
          url: "https://hooks.example.com/prism",
          events: ["request.succeeded"],
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/organizations/webhooks/update",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/organizations/webhooks/update",
            {
              organizationId,
              endpointId: state.webhookEndpointId,
              url: "https://hooks.example.com/prism",
              events: ["request.succeeded", "request.failed"],
              enabled: false,
            },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toEqual({
          before: { events: ["request.succeeded"], enabled: true },
          after: { events: ["request.succeeded", "request.failed"], enabled: false },
        });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/organizations/webhooks/delete",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/organizations/webhooks/delete",
            { organizationId, endpointId: state.webhookEndpointId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/organizations/webhooks/rotate-call-secret",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/organizations/webhooks/rotate-call-secret",
            { organizationId },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/payments/update-alerts",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/payments/update-alerts",
            { organizationId, lowBalance: 5, monthlyBudget: null, budgetHardStop: false },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toEqual({ before: { lowBalance: null }, after: { lowBalance: 5 } });
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organization-members/remove",
      run: async () => {
        const entries = await written(organizationId, () =>
          post(
            testApp,
            "/v1/users/organization-members/remove",
            { organizationId, userIdToRemove: state.member.userInfo.id },
            { session: owner.session },
          ),
        );
        return { orgId: organizationId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
    {
      path: "/v1/users/organizations/change-owner",
      run: async () => {
        const successor = await addMember(
          testApp,
          owner.session,
          state.secondOrganizationId,
          emptyPermissions(),
        );
        // The second organization requires two-factor sign-in: its new member enrols first.
        await enrolTotp(successor);
        const entries = await written(state.secondOrganizationId, () =>
          post(
            testApp,
            "/v1/users/organizations/change-owner",
            { organizationId: state.secondOrganizationId, newOwnerUserId: successor.userInfo.id },
            { session: owner.session },
          ),
        );
        expect(entries[0]?.changes).toEqual({
          before: { ownerUserId: owner.userInfo.id },
          after: { ownerUserId: successor.userInfo.id },
        });
        return {
          orgId: state.secondOrganizationId,
          actions: entries.map((entry) => entry.action as AuditAction),
        };
      },
    },
    {
      path: "/v1/users/organizations/delete",
      run: async () => {
        const third = await post(
          testApp,
          "/v1/users/organizations/create",
          { name: "Third" },
          { session: owner.session },
        );
        const orgId = third.json().id as string;
        const entries = await written(orgId, () =>
          post(
            testApp,
            "/v1/users/organizations/delete",
            { organizationId: orgId },
            { session: owner.session },
          ),
        );
        return { orgId, actions: entries.map((entry) => entry.action as AuditAction) };
      },
    },
  ];

  const EXPECTED: Record<string, AuditAction[]> = {
    "/v1/users/organizations/create": ["organization.created"],
    "/v1/users/organizations/update-security": ["organization.two-factor-requirement-changed"],
    "/v1/users/organizations/update-name": ["organization.renamed"],
    "/v1/users/organizations/update-billing": ["organization.billing-updated"],
    "/v1/users/organization-members/invite": ["member.invited"],
    "/v1/users/organization-members/revoke-invitation": ["member.invitation-revoked"],
    "/v1/users/organization-members/edit-permissions": ["member.permissions-changed"],
    "/v1/users/projects/create": ["project.created"],
    "/v1/users/projects/update": ["project.renamed"],
    "/v1/users/projects/delete": ["project.archived"],
    "/v1/users/api-keys/insert": ["api-key.created"],
    "/v1/users/api-keys/update": ["api-key.renamed", "api-key.limits-changed"],
    "/v1/users/api-keys/delete": ["api-key.deleted"],
    "/v1/payments/update-auto-recharge": ["auto-recharge.updated"],
    "/v1/payments/recharge-account": ["recharge.started", "recharge.succeeded"],
    "/v1/payments/delete-payment": ["payment-method.removed"],
    "/v1/users/playground/delete-request": ["playground-request.deleted"],
    "/v1/organizations/webhooks/insert": ["webhook-endpoint.created"],
    "/v1/organizations/webhooks/update": ["webhook-endpoint.updated"],
    "/v1/organizations/webhooks/delete": ["webhook-endpoint.deleted"],
    "/v1/organizations/webhooks/rotate-call-secret": ["call-webhook-secret.rotated"],
    "/v1/payments/update-alerts": ["alerts.updated"],
    "/v1/users/organization-members/remove": ["member.removed"],
    "/v1/users/organizations/change-owner": ["organization.owner-changed"],
    "/v1/users/organizations/delete": ["organization.archived"],
  };

  it("has a scenario or a stated reason for every call of the contract", () => {
    const covered = new Set([...scenarios.map((scenario) => scenario.path), ...Object.keys(NOT_AUDITED)]);
    expect(allCalls.map((call) => call.path).filter((path) => !covered.has(path))).toEqual([]);
    for (const scenario of scenarios) expect(NOT_AUDITED[scenario.path], scenario.path).toBeUndefined();
  });

  it("writes an entry for every state-changing call", async () => {
    for (const scenario of scenarios) {
      const { actions } = await scenario.run();
      expect(actions, scenario.path).toEqual(EXPECTED[scenario.path] ?? []);
    }
  });

  it("refuses UPDATE, DELETE and TRUNCATE of the log in the database itself", async () => {
    const db = testApp.database.db;
    const total = await entryCount();
    expect(total).toBeGreaterThan(0);
    // Drizzle wraps the database's error; the trigger's own words are in its cause.
    const refusal = (statement: ReturnType<typeof sql>) =>
      db.execute(statement).then(
        () => "allowed",
        (error: Error) => String((error.cause as Error | undefined)?.message ?? error.message),
      );
    expect(await refusal(sql`update audit_log set action = 'member.invited'`)).toMatch(/append-only: UPDATE/);
    expect(await refusal(sql`delete from audit_log`)).toMatch(/append-only: DELETE/);
    expect(await refusal(sql`truncate audit_log`)).toMatch(/append-only: TRUNCATE/);
    expect(await entryCount()).toBe(total);
  });

  it("leaves no entry when a change fails, even half-way through its transaction", async () => {
    const total = await entryCount();
    const outsider = await signUpAndConfirm(testApp);
    const afterSignUp = await entryCount();
    // Refused before anything is written.
    const refused = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId, name: "Hijacked" },
      { session: outsider.session },
    );
    expect(refused.statusCode).toBe(404);
    // The owner steps down inside the transaction, then the new owner is not found: all rolled back.
    const halfWay = await post(
      testApp,
      "/v1/users/organizations/change-owner",
      { organizationId, newOwnerUserId: outsider.userInfo.id },
      { session: owner.session },
    );
    expect(halfWay.statusCode).toBe(404);
    const [ownerRow] = await testApp.database.db
      .select({ isOwner: organizationMembers.isOwner })
      .from(organizationMembers)
      .where(
        and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.userId, owner.userInfo.id),
        ),
      );
    expect(ownerRow?.isOwner).toBe(true);
    expect(afterSignUp).toBe(total + 1);
    expect(await entryCount()).toBe(afterSignUp);
  });

  it("shows the log to the owner and organization.audit only, filtered and keyset-paged", async () => {
    const reader = await addMember(
      testApp,
      owner.session,
      organizationId,
      permissionsWith(["organization.audit"]),
    );
    const other = await addMember(
      testApp,
      owner.session,
      organizationId,
      permissionsWith(["organization.billing"]),
    );
    const list = (session: string, filter: object = {}) =>
      post(testApp, "/v1/users/audit-log/list", { organizationId, ...filter }, { session });
    expect((await list(other.session)).statusCode).toBe(403);
    expect((await list(reader.session)).statusCode).toBe(200);

    // More than two pages of one action, by one actor, written straight through the store.
    const extra = AUDIT_PAGE_SIZE + 5;
    await testApp.database.db.transaction(async (tx) => {
      for (let index = 0; index < extra; index += 1) {
        await recordAudit(tx, {
          organizationId,
          action: "project.renamed",
          target: { type: "project", id: projectId },
          after: { name: `Name ${index}` },
          actor: { kind: "user", userId: reader.userInfo.id },
          ip: null,
        });
      }
    });
    const filter = { action: "project.renamed", actorId: reader.userInfo.id };
    const first = (await list(owner.session, filter)).json() as { entries: AuditEntry[]; nextCursor: string };
    expect(first.entries).toHaveLength(AUDIT_PAGE_SIZE);
    expect(first.entries[0]?.actor).toEqual({
      type: "user",
      id: reader.userInfo.id,
      name: `${reader.userInfo.firstName} ${reader.userInfo.lastName}`,
    });
    const second = (await list(owner.session, { ...filter, cursor: first.nextCursor })).json() as {
      entries: AuditEntry[];
      nextCursor: string | null;
    };
    expect(second.entries).toHaveLength(extra - AUDIT_PAGE_SIZE);
    expect(second.nextCursor).toBeNull();
    const ids = [...first.entries, ...second.entries].map((entry) => entry.id);
    expect(new Set(ids).size).toBe(extra);
    // Newest first in the order they were written, though one transaction wrote them all within a
    // millisecond or two (PGlite's clock has no finer grain: entries of one change used to tie).
    expect([...first.entries, ...second.entries].map((entry) => entry.changes?.after?.name)).toEqual(
      Array.from({ length: extra }, (_, index) => `Name ${extra - 1 - index}`),
    );

    // A date range: today has them all, a day long past has none.
    const today = new Date().toISOString().slice(0, 10);
    expect((await list(owner.session, { ...filter, from: today, to: today })).json().entries).toHaveLength(
      AUDIT_PAGE_SIZE,
    );
    expect(
      (await list(owner.session, { ...filter, from: "2000-01-01", to: "2000-01-02" })).json().entries,
    ).toEqual([]);
    // A bad cursor, action or date is a 400, never a 500.
    expect((await list(owner.session, { cursor: "nonsense" })).statusCode).toBe(400);
    expect((await list(owner.session, { action: "nope" })).statusCode).toBe(400);
    expect((await list(owner.session, { from: "yesterday" })).statusCode).toBe(400);
    // Another organization's id reveals nothing.
    const stranger = await signUpAndConfirm(testApp);
    expect((await list(stranger.session)).statusCode).toBe(404);
  });

  it("exports the filtered log as CSV, to readers only", async () => {
    const exportAs = (session: string, query: string) =>
      testApp.app.inject({
        method: "GET",
        url: `${AUDIT_EXPORT_PATH}?${query}`,
        headers: SAME_ORIGIN,
        cookies: { [SESSION_COOKIE]: session },
      });
    const response = await exportAs(
      owner.session,
      `organizationId=${organizationId}&action=organization.renamed`,
    );
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toContain("text/csv");
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(Object.keys(rows[0] ?? {})).toEqual([...AUDIT_EXPORT_COLUMNS]);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.Action).toBe("organization.renamed");
    expect(rows[0]?.["IP address"]).toBe("203.0.113.7");
    expect(JSON.parse(rows[0]?.Changes ?? "{}")).toEqual({
      before: expect.any(Object),
      after: { name: "Renamed" },
    });

    const stranger = await signUpAndConfirm(testApp);
    expect((await exportAs(stranger.session, `organizationId=${organizationId}`)).statusCode).toBe(404);
    const unauthenticated = await testApp.app.inject({
      method: "GET",
      url: `${AUDIT_EXPORT_PATH}?organizationId=${organizationId}`,
    });
    expect(unauthenticated.statusCode).toBe(401);
  });
});

describe("the owner's two-factor requirement", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("is the owner's alone, needs the owner's own second factor, and sends members to enrol", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const member = await addMember(
      testApp,
      owner.session,
      organizationId,
      permissionsWith(["members.invite"]),
    );
    const require = (session: string, requireTwoFactor: boolean) =>
      post(
        testApp,
        "/v1/users/organizations/update-security",
        { organizationId, requireTwoFactor },
        { session },
      );

    const ownerFirst = await require(owner.session, true);
    expect(ownerFirst.statusCode).toBe(403);
    expect(ownerFirst.json().message).toBe(REQUIRE_TWO_FACTOR_OWNER_FIRST);
    expect((await require(member.session, true)).statusCode).toBe(403);

    const started = await post(testApp, "/v1/users/two-factor/start", {}, { session: owner.session });
    const secret = started.json().secret as string;
    const code = await generate({ secret, epoch: Math.floor(Date.now() / 1000) - TOTP_PERIOD_SECONDS });
    await post(testApp, "/v1/users/two-factor/enable", { code }, { session: owner.session });
    expect((await require(owner.session, true)).statusCode).toBe(200);

    // The member without a second factor: every call of the organization is refused with the code
    // the web redirects on; their own account still works, and so does the organization once enrolled.
    const refused = await post(
      testApp,
      "/v1/users/organization-members/list",
      { organizationId },
      { session: member.session },
    );
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      error: "two-factor-enrolment-required",
      message: TWO_FACTOR_ENROLMENT_REQUIRED,
    });
    const me = await post(testApp, "/v1/users/me", {}, { session: member.session });
    expect(me.statusCode).toBe(200);
    const required = (
      me.json().organizations as { id: string; properties: { requireTwoFactor?: boolean } }[]
    ).find((organization) => organization.id === organizationId);
    expect(required?.properties.requireTwoFactor).toBe(true);
    const memberStart = await post(testApp, "/v1/users/two-factor/start", {}, { session: member.session });
    await post(
      testApp,
      "/v1/users/two-factor/enable",
      { code: await generate({ secret: memberStart.json().secret, epoch: Math.floor(Date.now() / 1000) }) },
      { session: member.session },
    );
    expect(
      (
        await post(
          testApp,
          "/v1/users/organization-members/list",
          { organizationId },
          { session: member.session },
        )
      ).statusCode,
    ).toBe(200);

    const entries = await testApp.database.db
      .select()
      .from(auditLog)
      .where(
        and(
          eq(auditLog.organizationId, organizationId),
          eq(auditLog.action, "organization.two-factor-requirement-changed"),
        ),
      );
    expect(entries).toHaveLength(1);
    expect(entries[0]?.actorUserId).toBe(owner.userInfo.id);
  });
});
