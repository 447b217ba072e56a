import {
  calls,
  fullPermissions,
  statisticsQueryDate,
  TOTP_PERIOD_SECONDS,
  TWO_FACTOR_ENROLMENT_REQUIRED,
  USAGE_EXPORT_PATH,
  USAGE_SUMMARY_EXPORT_PATH,
} from "@prism/contract";
import { eq, getTableName, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { generate } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, type signUpAndConfirm } from "../../../test/accounts";
import { multipart } from "../../../test/images";
import { fundedAccount, imageModelEnv, startImageModelServer, TINY_PNG } from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { addMember } from "../../../test/members";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import {
  alertSettings,
  apiKeys,
  auditLog,
  featureRequests,
  invoiceLinks,
  ledgerEntries,
  organizationMembers,
  organizations,
  projects,
  usageDaily,
  usageDailyKeys,
  webhookEndpoints,
} from "../../db/schema";
import { SESSION_COOKIE } from "../auth/session-cookie";

type Account = Awaited<ReturnType<typeof signUpAndConfirm>>;

/** Every table a refused call of the organization could have written. */
const SNAPSHOT_TABLES = [
  organizations,
  organizationMembers,
  projects,
  apiKeys,
  featureRequests,
  ledgerEntries,
  usageDaily,
  usageDailyKeys,
  invoiceLinks,
  alertSettings,
  webhookEndpoints,
  auditLog,
];

async function snapshot(testApp: TestApp): Promise<string> {
  const parts: string[] = [];
  for (const table of SNAPSHOT_TABLES) {
    const name = getTableName(table);
    const result = await testApp.database.db.execute(sql.raw(`select * from "${name}" order by 1, 2`));
    parts.push(`${name}:${JSON.stringify((result as unknown as { rows: unknown[] }).rows)}`);
  }
  return parts.join("\n");
}

/**
 * The owner's two-factor requirement (spec: "members without it are sent to enrol before they can use
 * that organization") on every session path into the organization, not only the calls that name it:
 * those that name a project, a request, an invoice or a stored file resolve the organization too.
 */
describe("the owner's two-factor requirement on every session path", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let owner: Account;
  let member: Account;
  let organizationId: string;
  let projectId: string;
  let apiKey: { id: string; content: string };
  let historyRequestId: string;
  let storedFile: string;
  let invoiceId: string;

  const featureCall = (headers: Record<string, string>) => {
    const body = multipart([{ name: "image", value: TINY_PNG, filename: "a.png", contentType: "image/png" }]);
    return testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { ...headers, "content-type": body.contentType },
      payload: body.payload,
    });
  };
  const sessionFeatureCall = (session: string) =>
    featureCall({
      ...SAME_ORIGIN,
      cookie: `${SESSION_COOKIE}=${session}`,
      "x-authorization-project": projectId,
    });
  const get = (url: string, session: string) =>
    testApp.app.inject({ method: "GET", url, cookies: { [SESSION_COOKIE]: session } });

  const month = new Date().toISOString().slice(0, 7);
  const now = new Date();

  /**
   * Each session call a member with every right could make against the organization, in an order in
   * which each still finds what it names once the member is let in (the file before its request's
   * deletion, the key's details before the key's).
   */
  const organizationCalls = (): {
    name: string;
    send: (session: string) => Promise<LightMyRequestResponse>;
    /** The answer once enrolled, when it is not 200. */
    enrolled?: { status: number; error: string };
  }[] => [
    {
      name: "api-keys list",
      send: (session) => post(testApp, calls.apiKeys.list.path, { projectId }, { session }),
    },
    {
      name: "api-keys insert",
      send: (session) =>
        post(testApp, calls.apiKeys.insert.path, { projectId, apiKeyName: "Unenrolled" }, { session }),
    },
    {
      name: "api-keys details",
      send: (session) =>
        post(testApp, calls.apiKeys.details.path, { projectId, apiKeyId: apiKey.id }, { session }),
    },
    {
      name: "api-keys delete",
      send: (session) =>
        post(testApp, calls.apiKeys.delete.path, { projectId, apiKeyId: apiKey.id }, { session }),
    },
    { name: "stored file", send: (session) => get(storedFile, session) },
    {
      name: "playground get-requests",
      send: (session) =>
        post(
          testApp,
          calls.playground.getRequests.path,
          { endpoint: "/v1/images/background-removal", projectId, offset: 0 },
          { session },
        ),
    },
    {
      name: "playground delete-request",
      send: (session) =>
        post(
          testApp,
          calls.playground.deleteRequest.path,
          { projectId, requestId: historyRequestId },
          { session },
        ),
    },
    {
      name: "playground get-trained-identities",
      send: (session) =>
        post(testApp, calls.playground.getTrainedIdentities.path, { projectId, offset: 0 }, { session }),
    },
    { name: "feature call with the project header", send: sessionFeatureCall },
    {
      name: "statistics",
      send: (session) =>
        post(
          testApp,
          calls.statistics.get.path,
          {
            projectIds: [projectId],
            queryDate: statisticsQueryDate(now.getUTCFullYear(), now.getUTCMonth() + 1),
          },
          { session },
        ),
    },
    {
      name: "requests list",
      send: (session) =>
        post(testApp, calls.requests.list.path, { organizationId, projectIds: [projectId] }, { session }),
    },
    {
      name: "usage CSV export",
      send: (session) => get(`${USAGE_EXPORT_PATH}?month=${month}&projectIds=${projectId}`, session),
    },
    {
      name: "usage summary CSV export",
      send: (session) => get(`${USAGE_SUMMARY_EXPORT_PATH}?month=${month}&projectIds=${projectId}`, session),
    },
    {
      name: "project rename",
      send: (session) =>
        post(testApp, calls.projects.update.path, { projectId, name: "Renamed" }, { session }),
      // Renaming is the owner's alone: once enrolled, the member meets that rule instead.
      enrolled: { status: 403, error: "forbidden" },
    },
    {
      name: "invoice link",
      send: (session) => post(testApp, calls.invoices.retrieveLink.path, { invoiceId }, { session }),
    },
    {
      name: "members list",
      send: (session) => post(testApp, calls.members.list.path, { organizationId }, { session }),
    },
    {
      name: "payment info",
      send: (session) => post(testApp, calls.payments.getPaymentInfo.path, { organizationId }, { session }),
    },
  ];

  beforeAll(async () => {
    modelServer = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(modelServer));
    const account = await fundedAccount(testApp, 10_000_000n);
    ({ owner, organizationId, projectId } = account);
    apiKey = await account.createKey(undefined, "Owner's key");
    // History, a stored file and an invoice for the member to aim at.
    const played = await sessionFeatureCall(owner.session);
    expect(played.statusCode, played.body).toBe(200);
    historyRequestId = played.json().request.id;
    storedFile = played.json().request.response_data.file;
    await addSandboxCard(testApp, owner.session, organizationId);
    const recharged = await post(
      testApp,
      calls.payments.rechargeAccount.path,
      { organizationId, amount: 20 },
      { session: owner.session },
    );
    expect(recharged.statusCode, recharged.body).toBe(200);
    invoiceId = (
      await post(testApp, calls.invoices.get.path, { organizationId, page: 1 }, { session: owner.session })
    ).json().invoices[0].invoiceId;

    member = await addMember(testApp, owner.session, organizationId, fullPermissions(false));

    const started = await post(testApp, calls.twoFactor.start.path, {}, { session: owner.session });
    const code = await generate({
      secret: started.json().secret,
      epoch: Math.floor(Date.now() / 1000) - TOTP_PERIOD_SECONDS,
    });
    expect(
      (await post(testApp, calls.twoFactor.enable.path, { code }, { session: owner.session })).statusCode,
    ).toBe(200);
    const required = await post(
      testApp,
      calls.organizations.updateSecurity.path,
      { organizationId, requireTwoFactor: true },
      { session: owner.session },
    );
    expect(required.statusCode, required.body).toBe(200);
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("refuses a member without a second factor on each call, changes nothing, and lets them in once enrolled", async () => {
    for (const { name, send } of organizationCalls()) {
      const before = await snapshot(testApp);
      const refused = await send(member.session);
      expect(refused.statusCode, `${name} ${refused.body}`).toBe(403);
      expect(refused.json(), name).toMatchObject({
        error: "two-factor-enrolment-required",
        message: TWO_FACTOR_ENROLMENT_REQUIRED,
      });
      expect(await snapshot(testApp), name).toBe(before);
    }

    // The organization's API keys are not a member's session: the requirement does not touch them.
    const byKey = await featureCall({ authorization: `Bearer ${apiKey.content}` });
    expect(byKey.statusCode, byKey.body).toBe(200);

    // What the member needs to enrol still works.
    expect((await post(testApp, calls.users.me.path, {}, { session: member.session })).statusCode).toBe(200);
    expect(
      (
        await post(
          testApp,
          calls.users.updateProfile.path,
          { firstName: "Enrolling", lastName: "Member" },
          { session: member.session },
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (await post(testApp, calls.twoFactor.status.path, {}, { session: member.session })).statusCode,
    ).toBe(200);
    expect((await post(testApp, calls.passkeys.list.path, {}, { session: member.session })).statusCode).toBe(
      200,
    );
    const started = await post(testApp, calls.twoFactor.start.path, {}, { session: member.session });
    expect(started.statusCode).toBe(200);
    const code = await generate({ secret: started.json().secret, epoch: Math.floor(Date.now() / 1000) });
    const enabled = await post(testApp, calls.twoFactor.enable.path, { code }, { session: member.session });
    expect(enabled.statusCode, enabled.body).toBe(200);

    // Enrolled, the same member uses the organization again, and what they change is changed.
    for (const { name, send, enrolled } of organizationCalls()) {
      const answer = await send(member.session);
      expect(answer.statusCode, `${name} ${answer.body}`).toBe(enrolled?.status ?? 200);
      if (enrolled) expect(answer.json().error, name).toBe(enrolled.error);
    }
    const keys = await testApp.database.db
      .select({ name: apiKeys.name, revokedAt: apiKeys.revokedAt })
      .from(apiKeys)
      .orderBy(apiKeys.createdAt);
    expect(keys.map((key) => [key.name, key.revokedAt !== null])).toEqual([
      ["Owner's key", true],
      ["Unenrolled", false],
    ]);
    const [history] = await testApp.database.db
      .select({ deletedAt: featureRequests.deletedAt })
      .from(featureRequests)
      .where(eq(featureRequests.id, historyRequestId));
    expect(history?.deletedAt).not.toBeNull();

    expect((await post(testApp, calls.users.logout.path, {}, { session: member.session })).statusCode).toBe(
      200,
    );
  });
});
