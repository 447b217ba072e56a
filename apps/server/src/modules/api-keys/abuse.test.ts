import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { CONTROL_CHARACTER_NAMES, expectControlCharactersRefused } from "../../../test/control-characters";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { apiKeys } from "../../db/schema";

/** API key names through HTTP: a key's name shows in the key list, the Requests view and the exports. */
describe("API key abuse", () => {
  let testApp: TestApp;

  beforeAll(async () => {
    testApp = await createTestApp();
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("refuses control characters in a key's name, on creation and on rename", async () => {
    const owner = await signUpAndConfirm(testApp);
    const projectId: string = owner.userInfo.organizations[0].projects[0].id;
    const created = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId, apiKeyName: "deploy" },
      { session: owner.session },
    );
    expect(created.statusCode, created.body).toBe(200);
    const apiKeyId: string = created.json().apiKey.id;

    for (const name of Object.values(CONTROL_CHARACTER_NAMES)) {
      expectControlCharactersRefused(
        await post(
          testApp,
          "/v1/users/api-keys/insert",
          { projectId, apiKeyName: name },
          { session: owner.session },
        ),
      );
      expectControlCharactersRefused(
        await post(
          testApp,
          "/v1/users/api-keys/update",
          { projectId, apiKeyId, apiKeyName: name },
          { session: owner.session },
        ),
      );
    }
    const keys = await testApp.database.db.select().from(apiKeys).where(eq(apiKeys.projectId, projectId));
    expect(keys.map((key) => key.name)).toEqual(["deploy"]);
  });
});
