import { randomUUID } from "node:crypto";
import { AI_CLONE_NOT_FOUND, AI_CLONE_NOT_READY, IDENTITY_REQUEST_HEADER } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { makePng, multipart } from "../../../test/images";
import { fundedAccount } from "../../../test/key-fixtures";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { featureRequests, organizations } from "../../db/schema";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * AI Clone checks of the feature calls that use one (Pegasus generation with a clone, identity
 * inpainting): the identity header must name a finished, ready training of the caller's own project
 * that produced the identity sent, and every refusal happens before anything is charged or stored.
 */

const TRAINED_IDENTITY = "identity-trained";

/** A model server whose trainings end ready with {@link TRAINED_IDENTITY} and which draws the clone. */
function startModelServer() {
  return startModelServerStub({
    answers: {
      "/pegasus-training": { status: 200, json: { identityId: TRAINED_IDENTITY, status: "ready" } },
      "/pegasus-generation": "png",
      "/identity-inpainting": "png",
    },
  });
}

type Parts = Parameters<typeof multipart>[0];

describe("feature calls with an AI Clone", () => {
  let modelServer: StubModelServer;
  let testApp: TestApp;
  let organizationId: string;
  let projectId: string;
  let apiKey: string;
  let session: string;
  /** The training request id of a ready clone of the project, trained through the real pipeline. */
  let cloneRequestId: string;
  let png: Buffer;

  const db = () => testApp.database.db;

  const call = (endpoint: string, parts: Parts, headers: Record<string, string> = {}) => {
    const body = multipart(parts);
    return testApp.app.inject({
      method: "POST",
      url: endpoint,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType, ...headers },
      payload: body.payload,
    });
  };

  const inpaintingParts = (identityId = TRAINED_IDENTITY): Parts => [
    { name: "image", value: png, filename: "photo.png", contentType: "image/png" },
    { name: "mask", value: png, filename: "mask.png", contentType: "image/png" },
    { name: "identity_id", value: identityId },
    { name: "prompt", value: "smiling" },
  ];

  const generationParts = (identityId?: string): Parts => [
    { name: "prompt", value: "a portrait in a garden" },
    { name: "width", value: "512" },
    { name: "height", value: "512" },
    ...(identityId ? [{ name: "identity_id", value: identityId }] : []),
  ];

  /** Inserts a training row as the job queue leaves it, with overrides for the states under test. */
  const insertTraining = async (
    overrides: Partial<typeof featureRequests.$inferInsert> = {},
  ): Promise<string> => {
    const id = randomUUID();
    await db()
      .insert(featureRequests)
      .values({
        id,
        organizationId,
        projectId,
        endpoint: "/v1/images/pegasus-training",
        callType: "pegasus-training",
        status: "done",
        provider: "http",
        requestFiles: { images: [] },
        requestBody: { description: "Fixture clone" },
        responseBody: { identityId: `identity-${id}`, status: "ready" },
        units: 1,
        priceMicros: 0n,
        ...overrides,
      });
    return id;
  };

  /** Balance and request-log size of the project: a refused call must leave both unchanged. */
  const footprint = async () => ({
    balance: await cachedBalance(db(), organizationId),
    requests: (await db().select().from(featureRequests).where(eq(featureRequests.projectId, projectId)))
      .length,
  });

  const modelCalls = (path: string) => modelServer.requests.filter((request) => request.path === path).length;

  /** Expects a refusal that charged nothing, stored nothing and reached no model. */
  const expectRefused = async (
    send: () => ReturnType<typeof call>,
    expected: { status: number; error: string; message?: string | RegExp },
  ) => {
    const before = await footprint();
    const modelCallsBefore = modelServer.requests.length;
    const response = await send();
    expect(response.statusCode, response.body).toBe(expected.status);
    expect(response.json().error).toBe(expected.error);
    if (typeof expected.message === "string") expect(response.json().message).toBe(expected.message);
    else if (expected.message) expect(response.json().message).toMatch(expected.message);
    expect(await footprint()).toEqual(before);
    expect(modelServer.requests.length).toBe(modelCallsBefore);
  };

  beforeAll(async () => {
    modelServer = await startModelServer();
    testApp = await createTestApp({
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "pegasus-training,pegasus-generation,identity-inpainting",
    });
    const account = await fundedAccount(testApp, 50_000_000n);
    session = account.owner.session;
    ({ organizationId, projectId } = account);
    apiKey = (await account.createKey()).content;
    // Funded as after a first deposit, which training requires.
    await db().update(organizations).set({ isNew: false }).where(eq(organizations.id, organizationId));
    png = await makePng(64, 48);

    const photos = await Promise.all(Array.from({ length: 10 }, (_, index) => makePng(40 + index, 40)));
    const trained = await call("/v1/images/pegasus-training", [
      ...photos.map((photo, index) => ({
        name: "images",
        value: photo,
        filename: `face-${index}.png`,
        contentType: "image/png",
      })),
      { name: "description", value: "Ada" },
    ]);
    expect(trained.statusCode, trained.body).toBe(200);
    cloneRequestId = trained.json().request.id;
    await testApp.app.jobWorker.drain();
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("inpaints with a ready clone of the project and passes the clone on to the model", async () => {
    const clones = (
      await post(
        testApp,
        "/v1/users/playground/get-trained-identities",
        { projectId, offset: 0 },
        { session },
      )
    ).json().requests;
    expect(clones).toMatchObject([
      { id: cloneRequestId, identity_id: TRAINED_IDENTITY, identity_status: "ready" },
    ]);

    const before = await cachedBalance(db(), organizationId);
    const response = await call("/v1/images/identity-inpainting", inpaintingParts(), {
      [IDENTITY_REQUEST_HEADER]: cloneRequestId,
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json().request).toMatchObject({
      status: "done",
      request_data: { body: { identity_id: TRAINED_IDENTITY, prompt: "smiling", artistic: false } },
    });
    expect(await cachedBalance(db(), organizationId)).toBe(before - 50_000n);
    const received = modelServer.requests.at(-1);
    expect(received?.path).toBe("/identity-inpainting");
    expect(received?.headers[IDENTITY_REQUEST_HEADER]).toBe(cloneRequestId);
    expect(received?.body).toContain(TRAINED_IDENTITY);
  });

  it("generates with a clone at the identity price, and without one needs no header", async () => {
    const before = await cachedBalance(db(), organizationId);
    const withClone = await call("/v1/images/pegasus-generation", generationParts(TRAINED_IDENTITY), {
      [IDENTITY_REQUEST_HEADER]: cloneRequestId,
    });
    expect(withClone.statusCode, withClone.body).toBe(200);
    expect(modelServer.requests.at(-1)?.headers[IDENTITY_REQUEST_HEADER]).toBe(cloneRequestId);
    expect(await cachedBalance(db(), organizationId)).toBe(before - 50_000n);

    const plain = await call("/v1/images/pegasus-generation", generationParts());
    expect(plain.statusCode, plain.body).toBe(200);
    expect(await cachedBalance(db(), organizationId)).toBe(before - 80_000n);
  });

  it("requires the identity header whenever identity_id is sent", async () => {
    const generationCalls = modelCalls("/pegasus-generation");
    await expectRefused(() => call("/v1/images/identity-inpainting", inpaintingParts()), {
      status: 400,
      error: "invalid-input",
      message: new RegExp(`${IDENTITY_REQUEST_HEADER} header is required`),
    });
    await expectRefused(() => call("/v1/images/pegasus-generation", generationParts(TRAINED_IDENTITY)), {
      status: 400,
      error: "invalid-input",
      message: new RegExp(`${IDENTITY_REQUEST_HEADER} header is required`),
    });
    await expectRefused(
      () => call("/v1/images/identity-inpainting", inpaintingParts(), { [IDENTITY_REQUEST_HEADER]: "  " }),
      { status: 400, error: "invalid-input" },
    );
    expect(modelCalls("/pegasus-generation")).toBe(generationCalls);
  });

  it("refuses identity inpainting without an identity_id", async () => {
    await expectRefused(
      () =>
        call(
          "/v1/images/identity-inpainting",
          inpaintingParts().filter((part) => part.name !== "identity_id"),
          { [IDENTITY_REQUEST_HEADER]: cloneRequestId },
        ),
      { status: 400, error: "invalid-input", message: /identity_id/ },
    );
  });

  it("answers AI Clone not found for an unknown, malformed or mismatched clone", async () => {
    const notFound = { status: 404, error: "not-found", message: AI_CLONE_NOT_FOUND };
    for (const header of [randomUUID(), "not-a-uuid"]) {
      await expectRefused(
        () =>
          call("/v1/images/identity-inpainting", inpaintingParts(), { [IDENTITY_REQUEST_HEADER]: header }),
        notFound,
      );
    }
    // The header names a real clone, but identity_id is another one's.
    const other = await insertTraining();
    await expectRefused(
      () =>
        call("/v1/images/identity-inpainting", inpaintingParts(`identity-${other}`), {
          [IDENTITY_REQUEST_HEADER]: cloneRequestId,
        }),
      notFound,
    );
    // A request id that is not a training at all (a finished generation of the same project).
    const [generation] = await db()
      .select({ id: featureRequests.id })
      .from(featureRequests)
      .where(eq(featureRequests.endpoint, "/v1/images/pegasus-generation"))
      .limit(1);
    expect(generation).toBeDefined();
    await expectRefused(
      () =>
        call("/v1/images/pegasus-generation", generationParts(TRAINED_IDENTITY), {
          [IDENTITY_REQUEST_HEADER]: generation?.id ?? "",
        }),
      notFound,
    );
  });

  it("answers AI Clone not found for a deleted, failed or unsubmitted training", async () => {
    const notFound = { status: 404, error: "not-found", message: AI_CLONE_NOT_FOUND };
    const deleted = await insertTraining({ deletedAt: new Date() });
    const failed = await insertTraining({ status: "error", responseBody: null });
    const queued = await insertTraining({ status: "generating", responseBody: null });
    for (const id of [deleted, failed, queued]) {
      await expectRefused(
        () =>
          call("/v1/images/identity-inpainting", inpaintingParts(`identity-${id}`), {
            [IDENTITY_REQUEST_HEADER]: id,
          }),
        notFound,
      );
    }
  });

  it("does not let a project use another project's clone, in the same organization or another", async () => {
    const notFound = { status: 404, error: "not-found", message: AI_CLONE_NOT_FOUND };
    const sibling = await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: "Sibling" },
      { session },
    );
    expect(sibling.statusCode, sibling.body).toBe(200);
    const siblingClone = await insertTraining({ projectId: sibling.json().id });

    const stranger = await signUpAndConfirm(testApp);
    const foreignClone = await insertTraining({
      organizationId: stranger.userInfo.organizations[0].id,
      projectId: stranger.userInfo.organizations[0].projects[0].id,
    });

    for (const id of [siblingClone, foreignClone]) {
      await expectRefused(
        () =>
          call("/v1/images/identity-inpainting", inpaintingParts(`identity-${id}`), {
            [IDENTITY_REQUEST_HEADER]: id,
          }),
        notFound,
      );
      await expectRefused(
        () =>
          call("/v1/images/pegasus-generation", generationParts(`identity-${id}`), {
            [IDENTITY_REQUEST_HEADER]: id,
          }),
        notFound,
      );
    }
  });

  it("refuses a clone whose training has not reached ready", async () => {
    for (const status of ["pending", "training", "failed"] as const) {
      const id = await insertTraining({ responseBody: { identityId: `identity-${status}`, status } });
      await expectRefused(
        () =>
          call("/v1/images/identity-inpainting", inpaintingParts(`identity-${status}`), {
            [IDENTITY_REQUEST_HEADER]: id,
          }),
        { status: 409, error: "identity-not-ready", message: AI_CLONE_NOT_READY },
      );
    }
  });
});
