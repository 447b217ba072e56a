import { fullPermissions } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { addMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizations } from "../../db/schema";

describe("organization abuse", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const organizationRow = async (organizationId: string) =>
    (await testApp.database.db.select().from(organizations).where(eq(organizations.id, organizationId)))[0];

  it("lets only the owner rename or archive the organization, whatever rights a member holds", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    // Every right but ownership, and a second organization so archiving is not refused as the last one.
    const member = await addMember(testApp, owner.session, organizationId, fullPermissions(false));
    const before = await organizationRow(organizationId);

    const renamed = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId, name: "Taken over" },
      { session: member.session },
    );
    expect(renamed.statusCode).toBe(403);
    expect(renamed.json().error).toBe("forbidden");
    const archived = await post(
      testApp,
      "/v1/users/organizations/delete",
      { organizationId },
      { session: member.session },
    );
    expect(archived.statusCode).toBe(403);
    expect(archived.json().error).toBe("forbidden");
    expect(await organizationRow(organizationId)).toEqual(before);

    const byOwner = await post(
      testApp,
      "/v1/users/organizations/update-name",
      { organizationId, name: "Renamed by owner" },
      { session: owner.session },
    );
    expect(byOwner.statusCode).toBe(200);
    expect((await organizationRow(organizationId))?.name).toBe("Renamed by owner");
    await post(testApp, "/v1/users/organizations/create", { name: "Spare" }, { session: owner.session });
    const archivedByOwner = await post(
      testApp,
      "/v1/users/organizations/delete",
      { organizationId },
      { session: owner.session },
    );
    expect(archivedByOwner.statusCode).toBe(200);
    expect((await organizationRow(organizationId))?.archivedAt).toBeInstanceOf(Date);
  });
});
