import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fullPermissions, type Permissions, THUMBNAIL_SUFFIX } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import {
  fundedAccount,
  imageModelEnv,
  removeBackground,
  startImageModelServer,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { addMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { featureRequests } from "../../db/schema";
import { type FileStore, localFileStoreFor } from "../../providers/storage/file-store";
import { SESSION_COOKIE } from "../auth/session-cookie";

const ENDPOINT = "/v1/images/background-removal";

/** Every right, every project, but not the playground. */
function allButPlayground(): Permissions {
  const permissions = fullPermissions(false);
  permissions.organization.playground = false;
  return permissions;
}

describe("playground access", () => {
  let testApp: TestApp;
  const world = {} as {
    owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
    member: Awaited<ReturnType<typeof signUpAndConfirm>>;
    organizationId: string;
    projectId: string;
    requestId: string;
    fileKey: string;
    projectKey: string;
    strangerKey: string;
  };

  beforeAll(async () => {
    testApp = await createTestApp();
    world.owner = await signUpAndConfirm(testApp);
    world.organizationId = world.owner.userInfo.organizations[0].id;
    world.projectId = world.owner.userInfo.organizations[0].projects[0].id;
    world.member = await addMember(testApp, world.owner.session, world.organizationId, allButPlayground());

    // A finished call of the project, with its stored result.
    world.fileKey = `${world.organizationId}/${world.projectId}/${randomBytes(12).toString("hex")}`;
    await testApp.deps.files.put(world.fileKey, Buffer.from("result image"), "image/png");
    const [row] = await testApp.database.db
      .insert(featureRequests)
      .values({
        organizationId: world.organizationId,
        projectId: world.projectId,
        userId: world.owner.userInfo.id,
        endpoint: ENDPOINT,
        callType: "background-removal",
        status: "done",
        provider: "builtin",
        requestFiles: {},
        requestBody: {},
        responseFile: world.fileKey,
        units: 1,
        priceMicros: 0n,
      })
      .returning();
    world.requestId = row?.id ?? "";

    const key = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId: world.projectId, apiKeyName: "Backend" },
      { session: world.owner.session },
    );
    world.projectKey = key.json().apiKey.content;
    const stranger = await signUpAndConfirm(testApp);
    const strangerKey = await post(
      testApp,
      "/v1/users/api-keys/insert",
      { projectId: stranger.userInfo.organizations[0].projects[0].id, apiKeyName: "Elsewhere" },
      { session: stranger.session },
    );
    world.strangerKey = strangerKey.json().apiKey.content;
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const fileUrl = () => `/v1/files/${world.fileKey}`;

  it("refuses history, deletion and AI Clones to a member without the playground right", async () => {
    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { endpoint: ENDPOINT, projectId: world.projectId, offset: 0 },
      { session: world.member.session },
    );
    expect(history.statusCode).toBe(403);
    expect(history.json().error).toBe("forbidden");

    const identities = await post(
      testApp,
      "/v1/users/playground/get-trained-identities",
      { projectId: world.projectId, offset: 0 },
      { session: world.member.session },
    );
    expect(identities.statusCode).toBe(403);

    const deleted = await post(
      testApp,
      "/v1/users/playground/delete-request",
      { projectId: world.projectId, requestId: world.requestId },
      { session: world.member.session },
    );
    expect(deleted.statusCode).toBe(403);
    const [row] = await testApp.database.db
      .select()
      .from(featureRequests)
      .where(eq(featureRequests.id, world.requestId));
    expect(row?.deletedAt).toBeNull();
    expect(await testApp.deps.files.get(world.fileKey)).toBeDefined();
  });

  it("does not serve the project's stored files to a member without the playground right", async () => {
    const asMember = await testApp.app.inject({
      method: "GET",
      url: fileUrl(),
      cookies: { [SESSION_COOKIE]: world.member.session },
    });
    expect(asMember.statusCode).toBe(404);
    expect(asMember.body).not.toContain("result image");
  });

  it("still serves the owner, and API keys for their own project only", async () => {
    const asOwner = await testApp.app.inject({
      method: "GET",
      url: fileUrl(),
      cookies: { [SESSION_COOKIE]: world.owner.session },
    });
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.body).toBe("result image");
    const withKey = await testApp.app.inject({
      method: "GET",
      url: fileUrl(),
      headers: { authorization: `Bearer ${world.projectKey}` },
    });
    expect(withKey.statusCode).toBe(200);
    const withForeignKey = await testApp.app.inject({
      method: "GET",
      url: fileUrl(),
      headers: { authorization: `Bearer ${world.strangerKey}` },
    });
    expect(withForeignKey.statusCode).toBe(404);

    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { endpoint: ENDPOINT, projectId: world.projectId, offset: 0 },
      { session: world.owner.session },
    );
    expect(history.statusCode).toBe(200);
    expect(history.json().requests.map((request: { id: string }) => request.id)).toEqual([world.requestId]);
  });
});

describe("a thumbnail asked for while its request is deleted", () => {
  /** How long the thumbnail's request gets to reach its write before the deletion is sent. */
  const THUMBNAIL_HEAD_START_MS = 100;
  /**
   * Thumbnail writes wait on this until the test has deleted the request, so the write lands after the
   * deletion on every try however loaded the machine (a fixed delay lost that race on a busy CI run).
   */
  let deletionSent: Promise<void> = Promise.resolve();
  let model: LocalServer;
  let testApp: TestApp;
  let filesDir: string;
  let files: FileStore;

  beforeAll(async () => {
    model = await startImageModelServer();
    filesDir = mkdtempSync(join(tmpdir(), "prism-thumbnail-race-"));
    // The real local store, whose thumbnail writes wait for the deletion: the window the attack needs,
    // every time instead of by luck.
    const store = localFileStoreFor(filesDir);
    files = {
      get: (key) => store.get(key),
      delete: (key) => store.delete(key),
      check: () => store.check(),
      put: async (key, data, contentType) => {
        if (key.endsWith(THUMBNAIL_SUFFIX)) {
          await deletionSent;
        }
        await store.put(key, data, contentType);
      },
    };
    testApp = await createTestApp(imageModelEnv(model), { files });
  });

  afterAll(async () => {
    await testApp?.close();
    await model?.close();
    rmSync(filesDir, { recursive: true, force: true });
  });

  it("is not written after the deletion, however the two interleave (5 tries)", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const read = (url: string) =>
      testApp.app.inject({ method: "GET", url, headers: { authorization: `Bearer ${key.content}` } });
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const call = await removeBackground(testApp, key.content);
      expect(call.statusCode, call.body).toBe(200);
      const resultUrl: string = call.json().request.response_data.file;
      const requestId: string = call.json().request.id;
      const thumbnailUrl = `${resultUrl}${THUMBNAIL_SUFFIX}`;

      let markDeletionSent = () => {};
      deletionSent = new Promise((done) => {
        markDeletionSent = done;
      });
      const thumbnail = read(thumbnailUrl);
      await new Promise((done) => setTimeout(done, THUMBNAIL_HEAD_START_MS));
      const deleted = await post(
        testApp,
        "/v1/users/playground/delete-request",
        { projectId: account.projectId, requestId },
        { session: account.owner.session },
      ).finally(markDeletionSent);
      expect(deleted.statusCode, deleted.body).toBe(200);
      expect((await thumbnail).statusCode).toBe(404);

      expect((await read(resultUrl)).statusCode).toBe(404);
      expect((await read(thumbnailUrl)).statusCode).toBe(404);
      const thumbnailKey = thumbnailUrl.replace("/v1/files/", "");
      expect(await files.get(thumbnailKey)).toBeUndefined();
    }
  });
});
