import { NO_API_KEY_LIMITS } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { apiKeys } from "../../db/schema";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key-format";
import { authenticateApiKey } from "./api-key-runtime.service";

describe("API key format", () => {
  it("has the prefix, 32 random characters and a checksum that rejects typos", () => {
    const key = generateApiKey();
    expect(key).toMatch(/^psk_[0-9A-Za-z]{38}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    const typo = `${key.slice(0, 10)}${key[10] === "a" ? "b" : "a"}${key.slice(11)}`;
    expect(isWellFormedApiKey(typo)).toBe(false);
    expect(isWellFormedApiKey(`${key}x`)).toBe(false);
    expect(new Set(Array.from({ length: 50 }, generateApiKey)).size).toBe(50);
  });
});

describe("API keys", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("shows the key once, stores only its hash, lists the last four, renames and revokes", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Kim", lastName: "Lee" });
    const projectId = owner.userInfo.organizations[0].projects[0].id;
    const empty = await post(testApp, "/v1/users/api-keys/list", { projectId }, { session: owner.session });
    expect(empty.json()).toEqual({ apiKeys: [] });

    const inserted = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId, apiKeyName: "Backend" },
      { session: owner.session },
    );
    expect(inserted.statusCode).toBe(200);
    const { apiKey } = inserted.json();
    expect(isWellFormedApiKey(apiKey.content)).toBe(true);
    expect(apiKey).toMatchObject({
      name: "Backend",
      lastFourDigits: apiKey.content.slice(-4),
      lastUsed: null,
    });

    const [row] = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.id, apiKey.id));
    expect(row?.keyHash).toBe(hashApiKey(apiKey.content));
    expect(
      JSON.stringify(row, (_key, value) => (typeof value === "bigint" ? String(value) : value)),
    ).not.toContain(apiKey.content);

    const listed = (
      await post(testApp, "/v1/users/api-keys/list", { projectId }, { session: owner.session })
    ).json();
    expect(listed.apiKeys).toEqual([
      {
        id: apiKey.id,
        name: "Backend",
        lastFourDigits: apiKey.content.slice(-4),
        lastUsed: null,
        creationDate: expect.any(String),
        creationUserFirstName: "Kim",
        creationUserLastName: "Lee",
        // A key made without limits has none (as every key made before limits existed).
        limits: NO_API_KEY_LIMITS,
        spendThisMonth: 0,
        expired: false,
      },
    ]);
    expect(JSON.stringify(listed)).not.toContain(apiKey.content);

    const unnamed = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId, apiKeyName: "" },
      { session: owner.session },
    );
    expect(unnamed.json().apiKey.name).toBe("- no name -");

    await post(
      testApp,
      "/v1/users/api-keys/update",
      { projectId, apiKeyId: apiKey.id, apiKeyName: "Renamed" },
      { session: owner.session },
    );
    const principal = await authenticateApiKey(testApp.database.db, apiKey.content);
    expect(principal).toEqual({
      status: "valid",
      principal: {
        apiKeyId: apiKey.id,
        projectId,
        organizationId: owner.userInfo.organizations[0].id,
        // The organization's money state comes with the key (a feature call admits from it).
        organizationState: { balanceMicros: 0n, isNew: true, callsInFlight: 0, budgetReached: false },
        rules: {
          allowedEndpoints: null,
          monthlySpendCapMicros: null,
          lifetimeSpendCapMicros: null,
          allowedIps: null,
          requestsPerMinute: null,
          spentMonth: null,
          spentMonthMicros: 0n,
          spentLifetimeMicros: 0n,
        },
      },
    });
    const afterUse = (
      await post(testApp, "/v1/users/api-keys/list", { projectId }, { session: owner.session })
    ).json();
    expect(afterUse.apiKeys[0]).toMatchObject({ name: "Renamed", lastUsed: expect.any(String) });

    const deleted = await post(
      testApp,
      "/v1/users/api-keys/delete",
      { projectId, apiKeyId: apiKey.id },
      { session: owner.session },
    );
    expect(deleted.statusCode).toBe(200);
    expect(await authenticateApiKey(testApp.database.db, apiKey.content)).toEqual({ status: "invalid" });
    const remaining = (
      await post(testApp, "/v1/users/api-keys/list", { projectId }, { session: owner.session })
    ).json();
    expect(remaining.apiKeys.map((key: { id: string }) => key.id)).not.toContain(apiKey.id);
  });

  it("stops authenticating keys of an archived project", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const firstProjectId = owner.userInfo.organizations[0].projects[0].id;
    await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: "Spare" },
      { session: owner.session },
    );
    const { apiKey } = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: firstProjectId, apiKeyName: "k" },
        { session: owner.session },
      )
    ).json();
    expect((await authenticateApiKey(testApp.database.db, apiKey.content)).status).toBe("valid");
    await post(
      testApp,
      "/v1/users/projects/delete",
      { projectId: firstProjectId },
      { session: owner.session },
    );
    expect(await authenticateApiKey(testApp.database.db, apiKey.content)).toEqual({ status: "invalid" });
    expect(await authenticateApiKey(testApp.database.db, generateApiKey())).toEqual({ status: "invalid" });
  });
});
