import { fullPermissions } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { CONTROL_CHARACTER_NAMES, expectControlCharactersRefused } from "../../../test/control-characters";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { alertSettings, webhookDeliveries, webhookEndpoints } from "../../db/schema";

/**
 * Webhooks and alerts against someone else's ids and without the right: another organization's
 * endpoint and delivery ids are not found, a member who is not the owner manages no webhooks, and
 * alerts need the payments right; nothing changes on a refusal.
 */
describe("webhooks and alerts abuse", () => {
  let testApp: TestApp;
  const world = {} as {
    owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
    stranger: Awaited<ReturnType<typeof signUpAndConfirm>>;
    admin: Awaited<ReturnType<typeof signUpAndConfirm>>;
    payer: Awaited<ReturnType<typeof signUpAndConfirm>>;
    organizationId: string;
    strangerOrganizationId: string;
    endpointId: string;
    deliveryId: string;
    strangerEndpointId: string;
  };

  const insert = (session: string, organizationId: string) =>
    post(
      testApp,
      "/v1/organizations/webhooks/insert",
      { organizationId, url: "https://receiver.example.com/hook", events: ["payment.succeeded"] },
      { session },
    );

  beforeAll(async () => {
    testApp = await createTestApp();
    world.owner = await signUpAndConfirm(testApp);
    world.stranger = await signUpAndConfirm(testApp);
    world.organizationId = world.owner.userInfo.organizations[0].id;
    world.strangerOrganizationId = world.stranger.userInfo.organizations[0].id;
    world.admin = await addMember(testApp, world.owner.session, world.organizationId, {
      ...fullPermissions(false, []),
      projects: { all: true },
    });
    world.payer = await addMember(
      testApp,
      world.owner.session,
      world.organizationId,
      permissionsWith(["organization.payments"]),
    );
    world.endpointId = (await insert(world.owner.session, world.organizationId)).json().endpoint.id;
    world.strangerEndpointId = (
      await insert(world.stranger.session, world.strangerOrganizationId)
    ).json().endpoint.id;
    await post(
      testApp,
      "/v1/organizations/webhooks/send-test",
      { organizationId: world.organizationId, endpointId: world.endpointId },
      { session: world.owner.session },
    );
    const [delivery] = await testApp.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, world.endpointId));
    world.deliveryId = delivery?.id ?? "";
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const state = async () =>
    JSON.stringify([
      await testApp.database.db.select().from(webhookEndpoints).orderBy(webhookEndpoints.id),
      await testApp.database.db.select().from(webhookDeliveries).orderBy(webhookDeliveries.id),
      await testApp.database.db.select().from(alertSettings),
    ]);

  it("does not find another organization's endpoint or delivery under one's own organization", async () => {
    const before = await state();
    const own = { organizationId: world.strangerOrganizationId };
    for (const [path, body] of [
      ["/v1/organizations/webhooks/deliveries", { ...own, endpointId: world.endpointId }],
      ["/v1/organizations/webhooks/delete", { ...own, endpointId: world.endpointId }],
      ["/v1/organizations/webhooks/send-test", { ...own, endpointId: world.endpointId }],
      [
        "/v1/organizations/webhooks/update",
        {
          ...own,
          endpointId: world.endpointId,
          url: "https://x.example.com/",
          events: ["balance.low"],
          enabled: true,
        },
      ],
      [
        "/v1/organizations/webhooks/resend",
        { ...own, endpointId: world.endpointId, deliveryId: world.deliveryId },
      ],
      // Its own endpoint with the owner's delivery: the delivery must belong to the named endpoint.
      [
        "/v1/organizations/webhooks/resend",
        { ...own, endpointId: world.strangerEndpointId, deliveryId: world.deliveryId },
      ],
      ["/v1/organizations/webhooks/deliveries", { ...own, endpointId: "not-a-uuid" }],
    ] as const) {
      const response = await post(testApp, path, body, { session: world.stranger.session });
      expect(response.statusCode, `${path} ${response.body}`).toBe(404);
    }
    expect(await state()).toBe(before);
  });

  it("lets only the owner manage webhooks, even a member with every other right", async () => {
    const before = await state();
    for (const member of [world.admin, world.payer]) {
      expect((await insert(member.session, world.organizationId)).statusCode).toBe(403);
      const listed = await post(
        testApp,
        "/v1/organizations/webhooks/list",
        { organizationId: world.organizationId },
        { session: member.session },
      );
      expect(listed.statusCode).toBe(403);
      expect(listed.body).not.toContain("receiver.example.com");
    }
    expect(await state()).toBe(before);
  });

  it("lets members with the payments right set alerts, and refuses the others", async () => {
    const alerts = {
      organizationId: world.organizationId,
      lowBalance: 5,
      monthlyBudget: 100,
      budgetHardStop: false,
    };
    const withoutPayments = await addMember(
      testApp,
      world.owner.session,
      world.organizationId,
      permissionsWith(["organization.general"]),
    );
    const before = await state();
    const refused = await post(testApp, "/v1/payments/update-alerts", alerts, {
      session: withoutPayments.session,
    });
    expect(refused.statusCode).toBe(403);
    expect(await state()).toBe(before);
    const allowed = await post(testApp, "/v1/payments/update-alerts", alerts, {
      session: world.payer.session,
    });
    expect(allowed.statusCode, allowed.body).toBe(200);
    const read = await post(
      testApp,
      "/v1/payments/get-alerts",
      { organizationId: world.organizationId },
      { session: world.payer.session },
    );
    expect(read.json()).toMatchObject({
      lowBalance: 5,
      monthlyBudget: 100,
      budgetHardStop: false,
      monthSpend: 0,
    });
  });

  it("refuses a negative threshold and a zero budget", async () => {
    for (const alerts of [
      { lowBalance: -1, monthlyBudget: null, budgetHardStop: false },
      { lowBalance: null, monthlyBudget: 0, budgetHardStop: true },
    ]) {
      const response = await post(
        testApp,
        "/v1/payments/update-alerts",
        { organizationId: world.organizationId, ...alerts },
        { session: world.owner.session },
      );
      expect(response.statusCode).toBe(400);
    }
  });

  it("refuses an endpoint URL with control characters, which a URL parser would silently drop", async () => {
    const before = await testApp.database.db.select().from(webhookEndpoints);
    const url = (inside: string) => `https://receiver.exa${inside}mple.com/hook`;
    for (const characters of ["\t", "\n", "\r\n", CONTROL_CHARACTER_NAMES["right-to-left override"]]) {
      expectControlCharactersRefused(
        await post(
          testApp,
          "/v1/organizations/webhooks/insert",
          { organizationId: world.organizationId, url: url(characters), events: ["payment.succeeded"] },
          { session: world.owner.session },
        ),
      );
    }
    expect(await testApp.database.db.select().from(webhookEndpoints)).toEqual(before);
  });
});
