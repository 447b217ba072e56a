import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { makePng, multipart } from "../../../test/images";
import type { LocalServer } from "../../../test/local-http-server";
import { STUB_MODEL_SERVER_FEATURES, startStubModelServer } from "../../../test/model-server-stub";
import { addSandboxCard } from "../../../test/money";
import { createTestApp, SAME_ORIGIN, type TestApp } from "../../../test/test-app";

/**
 * Home's first-steps checklist (issue 33 item 9) reads what really happened to the organization: a card
 * saved, a payment credited, a key made, a call that succeeded with a key (the model server is a local
 * stub speaking our protocol).
 */
describe("first steps of a new organization", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;

  beforeAll(async () => {
    modelServer = await startStubModelServer();
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: STUB_MODEL_SERVER_FEATURES,
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("ticks Home's first steps as they really happen: card, recharge, key, a call made with the key", async () => {
    const owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    const projectId = owner.userInfo.organizations[0].projects[0].id;
    const session = owner.session;
    const steps = async () => {
      const answer = await post(
        testApp,
        "/v1/users/organizations/first-steps",
        { organizationId },
        { session },
      );
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json();
    };
    expect(await steps()).toEqual({
      cardAdded: false,
      recharged: false,
      apiKeyCreated: false,
      apiCallMade: false,
    });
    await addSandboxCard(testApp, session, organizationId);
    expect(await steps()).toMatchObject({ cardAdded: true, recharged: false });
    await post(testApp, "/v1/payments/recharge-account", { organizationId, amount: 20 }, { session });
    expect(await steps()).toMatchObject({ recharged: true, apiKeyCreated: false });
    const key = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "First" }, { session })
    ).json().apiKey.content as string;
    expect(await steps()).toMatchObject({ apiKeyCreated: true, apiCallMade: false });

    // A call from the playground is not the step: it asks for a call made with the key.
    const image = async () =>
      multipart([
        { name: "image", value: await makePng(16, 16), filename: "a.png", contentType: "image/png" },
      ]);
    const fromConsole = await image();
    const playground = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: {
        ...SAME_ORIGIN,
        cookie: `prism_session=${session}`,
        "x-authorization-project": projectId,
        "content-type": fromConsole.contentType,
      },
      payload: fromConsole.payload,
    });
    expect(playground.statusCode, playground.body).toBe(200);
    expect(await steps()).toMatchObject({ apiCallMade: false });
    const withKey = await image();
    const called = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { authorization: `Bearer ${key}`, "content-type": withKey.contentType },
      payload: withKey.payload,
    });
    expect(called.statusCode, called.body).toBe(200);
    expect(await steps()).toEqual({
      cardAdded: true,
      recharged: true,
      apiKeyCreated: true,
      apiCallMade: true,
    });

    // Another organization's steps are not the caller's to read.
    const stranger = await signUpAndConfirm(testApp);
    const refused = await post(
      testApp,
      "/v1/users/organizations/first-steps",
      { organizationId },
      { session: stranger.session },
    );
    expect(refused.statusCode).toBe(404);
  });
});
