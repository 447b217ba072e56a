import { fullPermissions } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm, uniqueEmail } from "../../../test/accounts";
import { CONTROL_CHARACTER_NAMES, expectControlCharactersRefused } from "../../../test/control-characters";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { organizations, projects } from "../../db/schema";

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

  it("refuses control characters in organization, project and billing names, and quotes names in mails", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId: string = owner.userInfo.organizations[0].id;
    const projectId: string = owner.userInfo.organizations[0].projects[0].id;
    const billing = {
      organizationId,
      billingName: "Acme Ltd",
      billingEmail: "billing@example.com",
      taxId: "GB123",
      address: "1 Main Street",
      city: "London",
      state: "London",
      zipCode: "N1 9GU",
      country: "United Kingdom",
    };
    expect((await post(testApp, "/v1/users/organizations/update-billing", billing, owner)).statusCode).toBe(
      200,
    );
    const before = await organizationRow(organizationId);
    const projectsBefore = await testApp.database.db.select().from(projects);

    for (const name of Object.values(CONTROL_CHARACTER_NAMES)) {
      expectControlCharactersRefused(await post(testApp, "/v1/users/organizations/create", { name }, owner));
      expectControlCharactersRefused(
        await post(testApp, "/v1/users/organizations/update-name", { organizationId, name }, owner),
      );
      expectControlCharactersRefused(
        await post(testApp, "/v1/users/projects/create", { organizationId, name }, owner),
      );
      expectControlCharactersRefused(
        await post(testApp, "/v1/users/projects/update", { projectId, name }, owner),
      );
      for (const field of ["billingName", "taxId", "address", "city", "state", "zipCode", "country"]) {
        expectControlCharactersRefused(
          await post(testApp, "/v1/users/organizations/update-billing", { ...billing, [field]: name }, owner),
        );
      }
    }
    // Nothing was written: no organization, no project, no changed name or billing field.
    expect(await organizationRow(organizationId)).toEqual(before);
    expect(await testApp.database.db.select().from(projects)).toEqual(projectsBefore);

    // A name with quotes and a colon, allowed, still reads as a name in the invitation a stranger gets.
    const name = 'Support: "Billing"';
    expect(
      (await post(testApp, "/v1/users/organizations/update-name", { organizationId, name }, owner))
        .statusCode,
    ).toBe(200);
    const email = uniqueEmail("stranger");
    const invited = await post(
      testApp,
      "/v1/users/organization-members/invite",
      { organizationId, emailList: email, permissions: permissionsWith([]) },
      owner,
    );
    expect(invited.statusCode, invited.body).toBe(200);
    const mail = (await testApp.deps.outbox.list()).find((candidate) => candidate.to === email);
    expect(mail?.subject).toBe(`"Ada Lovelace" invited you to "${name}" on Prism`);
    expect(mail?.text).toContain(`"Ada Lovelace" invited you to join the organization "${name}" on Prism.`);
  });
});
