import { WEBHOOK_TARGET_REFUSED } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalServer, startLocalServer } from "../../../test/local-http-server";
import { createTestApp, PRODUCTION_ENV, type TestApp } from "../../../test/test-app";
import { organizations, webhookDeliveries, webhookEndpoints } from "../../db/schema";
import { queueDelivery, testEventBody } from "../events/events.service";
import { isPublicAddress } from "./ssrf-guard";

describe("the SSRF guard's address rule", () => {
  it("allows public unicast addresses only", () => {
    for (const address of ["93.184.216.34", "8.8.8.8", "2606:4700:4700::1111"]) {
      expect(isPublicAddress(address), address).toBe(true);
    }
    for (const address of [
      "127.0.0.1",
      "127.9.9.9",
      "0.0.0.0",
      "10.1.2.3",
      "172.16.0.1",
      "192.168.1.1",
      "169.254.169.254",
      "100.64.0.1",
      "::1",
      "::",
      "fe80::1",
      "fc00::1",
      "fd12:3456::1",
      "::ffff:127.0.0.1",
      "::ffff:10.0.0.1",
      "224.0.0.1",
      "255.255.255.255",
      "not an address",
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });
});

/**
 * In production the delivery job refuses receivers on loopback, link-local and private networks,
 * decided on the address the connection would use: a literal IP and a name that resolves to one are
 * both refused, and the receiver never sees a request.
 */
describe("webhook deliveries in production", () => {
  let production: TestApp;
  let receiver: LocalServer;
  let organizationId: string;

  const deliverTo = async (url: string) => {
    const db = production.database.db;
    const [endpoint] = await db
      .insert(webhookEndpoints)
      .values({
        organizationId,
        url,
        events: ["request.succeeded"],
        secret: "whsec_c2VjcmV0LXNlY3JldC1zZWNyZXQ=",
      })
      .returning();
    if (!endpoint) throw new Error("no endpoint");
    const deliveryId = await db.transaction((tx) =>
      queueDelivery(tx, endpoint.id, `evt_ssrf_${endpoint.id}`, testEventBody(organizationId)),
    );
    await production.app.jobWorker.drain();
    const [delivery] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, deliveryId));
    return delivery;
  };

  beforeAll(async () => {
    receiver = await startLocalServer((_request, response) => {
      response.writeHead(200);
      response.end("ok");
    });
    production = await createTestApp(PRODUCTION_ENV);
    const [organization] = await production.database.db
      .insert(organizations)
      .values({ name: "Production" })
      .returning();
    organizationId = organization?.id ?? "";
  });

  afterAll(async () => {
    await production?.close();
    await receiver?.close();
  });

  it("refuses loopback, private and link-local targets, by literal address or by name", async () => {
    const port = new URL(receiver.url).port;
    for (const url of [
      receiver.url,
      `http://localhost:${port}/hook`,
      `http://[::1]:${port}/hook`,
      `http://[::ffff:127.0.0.1]:${port}/hook`,
      "http://169.254.169.254/latest/meta-data",
      "http://10.0.0.1/hook",
    ]) {
      const delivery = await deliverTo(url);
      expect(delivery, url).toMatchObject({
        attempts: 1,
        responseStatus: null,
        responseBody: WEBHOOK_TARGET_REFUSED,
      });
    }
    expect(receiver.requests).toHaveLength(0);
  });
});
