import { REQUEST_NOT_FOUND, REQUEST_RESULT_TEXT_PREVIEW, transcriptionFeature } from "@prism/contract";
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";

/**
 * A call of the Requests view opened (issue 33 item 8): its parameters, files, result, error, cost,
 * duration and caller, only for members who may use its project; and the log's rows carry the start of a
 * transcript instead of a dash.
 */

const GET = "/v1/users/requests/get";
const LIST = "/v1/users/requests/list";
const WORDS = ["go", "forward", "ten", "meters"];
const LONG_WORD = "x".repeat(40);

describe("a call of the Requests view, opened", () => {
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
  let organizationId: string;
  let projectId: string;
  let secondProjectId: string;
  let apiKeyId: string;
  const ids = {} as Record<"transcription" | "failed" | "deleted" | "byKey" | "long" | "second", string>;

  async function insert(values: {
    projectId?: string;
    endpoint: string;
    callType: string;
    status: "done" | "error";
    apiKeyId?: string | null;
    userId?: string | null;
    requestFiles: Record<string, string[]>;
    requestBody: Record<string, unknown>;
    responseFile?: string | null;
    responseBody?: unknown;
    errorMessage?: string | null;
    deleted?: boolean;
  }): Promise<string> {
    const result = await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, api_key_id, user_id, endpoint, call_type,
        status, provider, request_files, request_body, response_file, response_body, units, price_micros,
        error_message, created_at, completed_at, deleted_at, client_ip)
      values (${organizationId}, ${values.projectId ?? projectId}, ${values.apiKeyId ?? null},
        ${values.userId ?? null}, ${values.endpoint}, ${values.callType}, ${values.status}, 'builtin',
        ${JSON.stringify(values.requestFiles)}::jsonb, ${JSON.stringify(values.requestBody)}::jsonb,
        ${values.responseFile ?? null},
        ${values.responseBody === undefined ? null : JSON.stringify(values.responseBody)}::jsonb,
        1, 6000, ${values.errorMessage ?? null}, timestamptz '2026-03-01 10:00:00+00',
        timestamptz '2026-03-01 10:00:02.5+00',
        ${values.deleted ? sql`timestamptz '2026-03-02 00:00:00+00'` : null}, '203.0.113.9')
      returning id`);
    return (result as unknown as { rows: { id: string }[] }).rows[0]!.id;
  }

  const get = (requestId: string, session = owner.session, organization = organizationId) =>
    post(testApp, GET, { organizationId: organization, requestId }, { session });

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await signUpAndConfirm(testApp, { firstName: "Tara", lastName: "Tester" });
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    const session = owner.session;
    secondProjectId = (
      await post(testApp, "/v1/users/projects/create", { organizationId, name: "Second" }, { session })
    ).json().id;
    apiKeyId = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "Backend" }, { session })
    ).json().apiKey.id;
    const segments = WORDS.map((text, index) => ({ start: index, end: index + 1, text: ` ${text} ` }));
    const audio = `${organizationId}/${projectId}/in.wav`;
    ids.transcription = await insert({
      endpoint: transcriptionFeature.endpoint,
      callType: "transcription",
      status: "done",
      userId: owner.userInfo.id,
      requestFiles: { audio: [audio] },
      requestBody: { language: "en" },
      responseBody: { language: "en", segments },
    });
    ids.long = await insert({
      endpoint: transcriptionFeature.endpoint,
      callType: "transcription",
      status: "done",
      userId: owner.userInfo.id,
      requestFiles: { audio: [audio] },
      requestBody: { language: "en" },
      responseBody: {
        language: "en",
        segments: Array.from({ length: 10 }, (_, index) => ({
          start: index,
          end: index + 1,
          text: LONG_WORD,
        })),
      },
    });
    ids.failed = await insert({
      endpoint: "/v1/images/background-removal",
      callType: "background-removal",
      status: "error",
      userId: owner.userInfo.id,
      requestFiles: { image: [`${organizationId}/${projectId}/photo.png`] },
      requestBody: {},
      errorMessage: "The model server did not answer. You were not charged for it.",
    });
    ids.deleted = await insert({
      endpoint: transcriptionFeature.endpoint,
      callType: "transcription",
      status: "done",
      userId: owner.userInfo.id,
      requestFiles: { audio: [audio] },
      requestBody: { language: "de" },
      responseBody: { language: "de", segments },
      deleted: true,
    });
    ids.byKey = await insert({
      endpoint: "/v1/images/extension",
      callType: "extension",
      status: "done",
      apiKeyId,
      requestFiles: { image: [`${organizationId}/${projectId}/small.png`] },
      requestBody: { top: 16, bottom: 0, left: 8, right: 0 },
      responseFile: `${organizationId}/${projectId}/result.png`,
    });
    ids.second = await insert({
      projectId: secondProjectId,
      endpoint: "/v1/images/upscaling",
      callType: "upscaling",
      status: "done",
      userId: owner.userInfo.id,
      requestFiles: { image: [`${organizationId}/${secondProjectId}/small.png`] },
      requestBody: {},
      responseFile: `${organizationId}/${secondProjectId}/big.png`,
    });
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("lists a transcription with the start of its transcript, and other calls without text", async () => {
    const listed = await post(
      testApp,
      LIST,
      { organizationId, projectIds: [projectId] },
      { session: owner.session },
    );
    expect(listed.statusCode, listed.body).toBe(200);
    const rows = new Map(
      (listed.json().requests as { id: string; resultText: string | null }[]).map((row) => [row.id, row]),
    );
    expect(rows.get(ids.transcription)?.resultText).toBe(WORDS.join(" "));
    const long = rows.get(ids.long)?.resultText ?? "";
    expect(long).toHaveLength(REQUEST_RESULT_TEXT_PREVIEW);
    expect(long.startsWith(`${LONG_WORD} ${LONG_WORD}`)).toBe(true);
    expect(rows.get(ids.byKey)?.resultText).toBeNull();
    expect(rows.get(ids.failed)?.resultText).toBeNull();
    // Deleted from the playground: no words left to show.
    expect(rows.get(ids.deleted)?.resultText).toBeNull();
  });

  it("opens a transcription with its parameters, file, transcript, cost, duration and the person who made it", async () => {
    const opened = await get(ids.transcription);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().request).toMatchObject({
      id: ids.transcription,
      feature: transcriptionFeature.name,
      projectName: "Default Project",
      caller: "Playground",
      userName: "Tara Tester",
      status: "done",
      durationMs: 2500,
      cost: 0.006,
      parameters: { language: "en" },
      inputs: { audio: [`/v1/files/${organizationId}/${projectId}/in.wav`] },
      resultUrl: null,
      resultText: WORDS.join(" "),
      resultBody: { language: "en" },
      error: null,
      clientIp: "203.0.113.9",
      deleted: false,
    });
    expect(opened.json().request.resultBody.segments).toHaveLength(WORDS.length);
  });

  it("opens a failed call with its reason and no charge, and an API key's call by the key's name", async () => {
    expect((await get(ids.failed)).json().request).toMatchObject({
      status: "error",
      cost: 0,
      error: "The model server did not answer. You were not charged for it.",
    });
    expect((await get(ids.byKey)).json().request).toMatchObject({
      caller: "Backend",
      apiKeyId,
      userName: null,
      parameters: { top: 16, bottom: 0, left: 8, right: 0 },
      resultUrl: `/v1/files/${organizationId}/${projectId}/result.png`,
    });
  });

  it("keeps a deleted call's money trail and none of its files or result", async () => {
    expect((await get(ids.deleted)).json().request).toMatchObject({
      deleted: true,
      cost: 0.006,
      inputs: {},
      resultBody: null,
      resultText: null,
      resultUrl: null,
    });
  });

  it("answers the same 404 for another organization's call, one that never existed, and a stranger", async () => {
    const stranger = await signUpAndConfirm(testApp);
    const strangerOrganization = stranger.userInfo.organizations[0].id;
    for (const response of [
      await get(ids.transcription, stranger.session, strangerOrganization),
      await get(crypto.randomUUID()),
      await get(ids.transcription, stranger.session),
    ]) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.body).not.toContain("Tara");
    }
    expect((await get(crypto.randomUUID())).json()).toMatchObject({ message: REQUEST_NOT_FOUND });
  });

  it("refuses a member the calls of a project they may not use, and opens those they may", async () => {
    const member = await addMember(
      testApp,
      owner.session,
      organizationId,
      permissionsWith([`projects.${secondProjectId}`]),
    );
    const refused = await get(ids.transcription, member.session);
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain("forward");
    const allowed = await get(ids.second, member.session);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().request.projectName).toBe("Second");
  });
});
