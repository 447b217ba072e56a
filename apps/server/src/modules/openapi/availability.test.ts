import { FEATURE_NEEDS_MODEL_SERVER, FEATURES, NEEDS_MODEL_SERVER_BADGE } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { createTestApp, type TestApp } from "../../../test/test-app";

interface Availability {
  available: boolean;
  needsModelServer: boolean;
  reason: string | null;
  badge?: string;
}

/**
 * A deployment with a model server for background removal only and no builtin engine: every other
 * feature needs a model server, and both the API reference and the console's feature status say so.
 */
describe("features this deployment cannot run", () => {
  let modelServer: StubModelServer;
  let testApp: TestApp;

  beforeAll(async () => {
    modelServer = await startModelServerStub({ answers: {} });
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal",
    });
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("are marked in the served OpenAPI document, with the plain reason", async () => {
    const response = await testApp.app.inject({ method: "GET", url: "/v1/openapi.json" });
    expect(response.statusCode).toBe(200);
    const document = response.json() as {
      paths: Record<string, { post?: { "x-prism-availability"?: Availability } }>;
    };
    const availabilityOf = (endpoint: string) => document.paths[endpoint]?.post?.["x-prism-availability"];
    expect(availabilityOf("/v1/images/background-removal")).toEqual({
      available: true,
      needsModelServer: false,
      reason: null,
    });
    for (const feature of FEATURES.filter((candidate) => candidate.id !== "image-background-removal")) {
      expect(availabilityOf(feature.endpoint), feature.id).toEqual({
        available: false,
        needsModelServer: true,
        reason: FEATURE_NEEDS_MODEL_SERVER,
        badge: NEEDS_MODEL_SERVER_BADGE,
      });
    }
  });

  it("are explained in plain words by the console's feature status, with no provider", async () => {
    const owner = await signUpAndConfirm(testApp);
    const response = await post(
      testApp,
      "/v1/users/playground/feature-status",
      {},
      { session: owner.session },
    );
    expect(response.statusCode).toBe(200);
    const { features } = response.json() as {
      features: { endpoint: string; available: boolean; reason: string | null; provider: string | null }[];
    };
    const generation = features.find((feature) => feature.endpoint === "/v1/images/generation");
    expect(generation).toMatchObject({
      available: false,
      provider: null,
      reason: FEATURE_NEEDS_MODEL_SERVER,
    });
    const removal = features.find((feature) => feature.endpoint === "/v1/images/background-removal");
    expect(removal).toMatchObject({ available: true, provider: "http", reason: null });
  });
});
