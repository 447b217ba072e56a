import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, type signUpAndConfirm } from "../../../test/accounts";
import { makePng, multipart } from "../../../test/images";
import { fundedAccount } from "../../../test/key-fixtures";
import { type StubModelServer, startModelServerStub } from "../../../test/model-server-stub";
import { createTestApp, type TestApp } from "../../../test/test-app";

const PUBLIC_URL = "https://console.example.com";

/**
 * Downloading stored inputs and results through the API, as the reference documents it: the answer's
 * URLs (absolute with PUBLIC_URL), fetched with the project's key; every other caller gets 404.
 */
describe("downloading results through the API", () => {
  let modelServer: StubModelServer;
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
  let organizationId: string;
  let projectId: string;
  let apiKey: string;
  let otherProjectKey: string;
  let otherOrganizationKey: string;
  let answer: {
    request: { id: string; request_data: { files: { image: string[] } }; response_data: { file: string } };
  };

  const keyFor = async (session: string, project: string) =>
    (
      await post(testApp, "/v1/users/api-keys/insert", { projectId: project, apiKeyName: "ci" }, { session })
    ).json().apiKey.content as string;

  const download = (url: string, key?: string) =>
    testApp.app.inject({
      method: "GET",
      url: url.startsWith(PUBLIC_URL) ? url.slice(PUBLIC_URL.length) : url,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });

  beforeAll(async () => {
    modelServer = await startModelServerStub({ answers: {}, otherwise: "png" });
    testApp = await createTestApp({
      PUBLIC_URL,
      MODEL_SERVER_URL: modelServer.url,
      MODEL_SERVER_FEATURES: "image-background-removal",
    });
    const account = await fundedAccount(testApp, 20_000_000n);
    ({ owner, organizationId, projectId } = account);
    apiKey = (await account.createKey()).content;
    const secondProject = await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: "Second" },
      { session: owner.session },
    );
    otherProjectKey = await keyFor(owner.session, secondProject.json().id);
    otherOrganizationKey = (await (await fundedAccount(testApp, 0n)).createKey()).content;
    const body = multipart([
      { name: "image", value: await makePng(64, 48), filename: "photo.png", contentType: "image/png" },
    ]);
    const response = await testApp.app.inject({
      method: "POST",
      url: "/v1/images/background-removal",
      headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
      payload: body.payload,
    });
    expect(response.statusCode, response.body).toBe(200);
    answer = response.json();
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("answers a feature call with absolute file URLs on PUBLIC_URL", () => {
    const prefix = `${PUBLIC_URL}/v1/files/${organizationId}/${projectId}/`;
    expect(answer.request.response_data.file.startsWith(prefix)).toBe(true);
    expect(answer.request.request_data.files.image).toHaveLength(1);
    expect(answer.request.request_data.files.image[0]!.startsWith(prefix)).toBe(true);
  });

  it("keeps paths in the console's history, which the browser resolves on its own origin", async () => {
    const history = await post(
      testApp,
      "/v1/users/playground/get-requests",
      { endpoint: "/v1/images/background-removal", projectId, offset: 0 },
      { session: owner.session },
    );
    expect(history.statusCode).toBe(200);
    const [record] = history.json().requests;
    expect(record.id).toBe(answer.request.id);
    expect(record.response_data.file).toBe(answer.request.response_data.file.slice(PUBLIC_URL.length));
  });

  it("serves the result, the input and a thumbnail to the project's key with their content types", async () => {
    const result = await download(answer.request.response_data.file, apiKey);
    expect(result.statusCode).toBe(200);
    expect(result.headers["content-type"]).toBe("image/png");
    expect((await sharp(result.rawPayload).metadata()).format).toBe("png");

    const input = await download(answer.request.request_data.files.image[0]!, apiKey);
    expect(input.statusCode).toBe(200);
    expect(input.headers["content-type"]).toBe("image/png");
    expect((await sharp(input.rawPayload).metadata()).width).toBe(64);

    const thumbnail = await download(`${answer.request.response_data.file}_thumb`, apiKey);
    expect(thumbnail.statusCode).toBe(200);
    expect(thumbnail.headers["content-type"]).toBe("image/webp");
    expect((await sharp(thumbnail.rawPayload).metadata()).format).toBe("webp");
  });

  it("makes an input's thumbnail on its first request and keeps it for the next", async () => {
    const inputUrl = answer.request.request_data.files.image[0]!;
    const thumbnailKey = `${inputUrl.slice(`${PUBLIC_URL}/v1/files/`.length)}_thumb`;
    expect(await testApp.deps.files.get(thumbnailKey)).toBeUndefined();

    const first = await download(`${inputUrl}_thumb`, apiKey);
    expect(first.statusCode).toBe(200);
    const metadata = await sharp(first.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height]).toEqual(["webp", 64, 48]);
    const kept = await testApp.deps.files.get(thumbnailKey);
    expect(kept?.contentType).toBe("image/webp");
    expect(kept?.data.equals(first.rawPayload)).toBe(true);

    const second = await download(`${inputUrl}_thumb`, apiKey);
    expect(second.rawPayload.equals(first.rawPayload)).toBe(true);
  });

  it("answers 404 for a thumbnail of a thumbnail or of a missing file", async () => {
    const thumbnailOfThumbnail = await download(`${answer.request.response_data.file}_thumb_thumb`, apiKey);
    expect(thumbnailOfThumbnail.statusCode).toBe(404);
    const missing = await download(`/v1/files/${organizationId}/${projectId}/no-such-file_thumb`, apiKey);
    expect(missing.statusCode).toBe(404);
  });

  it("answers 404 to another project's key, another organization's key, a wrong key and no key", async () => {
    const url = answer.request.response_data.file;
    // The key with its last character changed (to "y" when it already ends in "x": one key in 62 does).
    const wrongKey = `${apiKey.slice(0, -1)}${apiKey.endsWith("x") ? "y" : "x"}`;
    for (const key of [otherProjectKey, otherOrganizationKey, wrongKey, undefined]) {
      const response = await download(url, key);
      expect(response.statusCode).toBe(404);
      expect(response.json()).toMatchObject({ error: "not-found" });
    }
    const missing = await download(`/v1/files/${organizationId}/${projectId}/no-such-file`, apiKey);
    expect(missing.statusCode).toBe(404);
  });
});
