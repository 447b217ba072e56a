import {
  API_KEY_NOT_FOUND,
  backgroundRemovalFeature,
  INVALID_REQUESTS_CURSOR,
  type ListRequestsResponse,
  PLAYGROUND_CALLER,
  PLAYGROUND_CALLER_FILTER,
  REQUESTS_PAGE_SIZE,
  type RequestLogEntry,
  upscalingFeature,
} from "@prism/contract";
import { and, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { addMember, permissionsWith } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { featureRequests } from "../../db/schema";
import { NOT_FOUND_PROJECT } from "../access/access.service";

/**
 * The Requests view's call over HTTP: every call of the named projects newest first, page after page
 * through the keyset (rows sharing one instant included), the filters, and refusals of anything that is
 * not the caller's.
 */

const LIST = "/v1/users/requests/list";
const FIRST_ROWS = 137;
const SECOND_ROWS = 23;

describe("the Requests view", () => {
  let testApp: TestApp;
  let session: string;
  let organizationId: string;
  let projectId: string;
  let secondProjectId: string;
  let apiKeyId: string;
  let strangerSession: string;
  let strangerOrganizationId: string;
  let strangerProjectId: string;
  let strangerKeyId: string;

  const list = (body: object, cookie = session) => post(testApp, LIST, body, { session: cookie });

  /** Every page from the first, following `nextCursor`; fails on a page that is not 200. */
  async function allPages(body: object): Promise<{ rows: RequestLogEntry[]; pages: number[] }> {
    const rows: RequestLogEntry[] = [];
    const pages: number[] = [];
    let cursor: string | null = null;
    do {
      const response = await list({ ...body, ...(cursor ? { cursor } : {}) });
      expect(response.statusCode, response.body).toBe(200);
      const page = response.json() as ListRequestsResponse;
      rows.push(...page.requests);
      pages.push(page.requests.length);
      cursor = page.nextCursor;
    } while (cursor);
    return { rows, pages };
  }

  /** The ids the request log holds for a filter, in the view's order, read straight from the table. */
  async function expectedIds(...conditions: (SQL | undefined)[]): Promise<string[]> {
    const rows = await testApp.database.db
      .select({ id: featureRequests.id })
      .from(featureRequests)
      .where(and(inArray(featureRequests.projectId, [projectId, secondProjectId]), ...conditions))
      .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id));
    return rows.map((row) => row.id);
  }

  beforeAll(async () => {
    testApp = await createTestApp();
    const owner = await signUpAndConfirm(testApp);
    session = owner.session;
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    secondProjectId = (
      await post(testApp, "/v1/users/projects/create", { organizationId, name: "Second" }, { session })
    ).json().id;
    apiKeyId = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "Alpha" }, { session })
    ).json().apiKey.id;
    const stranger = await signUpAndConfirm(testApp);
    strangerSession = stranger.session;
    strangerOrganizationId = stranger.userInfo.organizations[0].id;
    strangerProjectId = stranger.userInfo.organizations[0].projects[0].id;
    strangerKeyId = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: strangerProjectId, apiKeyName: "Beta" },
        { session: strangerSession },
      )
    ).json().apiKey.id;

    // Three calls per instant (microseconds included), so pages end inside a tie: every third by the
    // console, every fifth failed, every seventh still running, two features alternating.
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type, status,
        provider, request_files, request_body, units, price_micros, response_file, created_at, completed_at)
      select ${organizationId}, ${projectId}, case when i % 3 = 0 then null else ${apiKeyId}::uuid end,
        case when i % 2 = 0 then '/v1/images/background-removal' else '/v1/speech/transcription' end,
        case when i % 2 = 0 then 'background-removal' else 'transcription' end,
        case when i % 7 = 0 then 'generating' when i % 5 = 0 then 'error' else 'done' end, 'http',
        '{}'::jsonb, '{}'::jsonb, 1, 12345,
        case when i % 2 = 0 and i % 7 <> 0 and i % 5 <> 0 then ${organizationId} || '/' || ${projectId} || '/r' || i || '.png' end,
        timestamptz '2026-03-01 00:00:00.123456+00' + ((i / 3) * interval '1 hour'),
        case when i % 7 = 0 then null
          else timestamptz '2026-03-01 00:00:00.123456+00' + ((i / 3) * interval '1 hour') + interval '1.5 seconds' end
      from generate_series(1, ${FIRST_ROWS}) as i`);
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, endpoint, call_type, status, provider,
        request_files, request_body, units, price_micros, created_at)
      select ${organizationId}, ${secondProjectId}, '/v1/images/upscaling', 'upscaling', 'done', 'http',
        '{}'::jsonb, '{}'::jsonb, 1, 2000, timestamptz '2026-03-02 12:00:00+00' + (i * interval '5 hours')
      from generate_series(1, ${SECOND_ROWS}) as i`);
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type, status,
        provider, request_files, request_body, units, price_micros, created_at)
      values (${strangerOrganizationId}, ${strangerProjectId}, ${strangerKeyId}, '/v1/images/upscaling',
        'upscaling', 'done', 'http', '{}', '{}', 1, 2000, timestamptz '2026-03-03 00:00:00+00')`);
  });

  afterAll(async () => {
    await testApp?.close();
  });

  it("pages through every call of the projects newest first, ties included, none twice or missed", async () => {
    const { rows, pages } = await allPages({ organizationId, projectIds: [projectId, secondProjectId] });
    const total = FIRST_ROWS + SECOND_ROWS;
    expect(pages).toEqual([
      ...Array(Math.floor(total / REQUESTS_PAGE_SIZE)).fill(REQUESTS_PAGE_SIZE),
      ...(total % REQUESTS_PAGE_SIZE ? [total % REQUESTS_PAGE_SIZE] : []),
    ]);
    expect(new Set(rows.map((row) => row.id)).size).toBe(total);
    expect(rows.map((row) => row.id)).toEqual(await expectedIds());
    const times = rows.map((row) => Date.parse(row.date));
    expect(times).toEqual([...times].sort((a, b) => b - a));
    // Some page boundary falls inside a run of calls made at one instant.
    const boundaries = [REQUESTS_PAGE_SIZE, 2 * REQUESTS_PAGE_SIZE];
    expect(boundaries.some((index) => rows[index - 1]?.date === rows[index]?.date)).toBe(true);
  });

  it("lists each call with its feature, caller, status, duration, cost and result", async () => {
    const { rows } = await allPages({ organizationId, projectIds: [projectId, secondProjectId] });
    const byKey = rows.find((row) => row.apiKeyId === apiKeyId && row.status === "done" && row.resultUrl);
    expect(byKey).toMatchObject({
      projectId,
      projectName: "Default Project",
      endpoint: "/v1/images/background-removal",
      feature: backgroundRemovalFeature.name,
      caller: "Alpha",
      durationMs: 1500,
      cost: 0.012345,
    });
    expect(byKey?.resultUrl).toMatch(new RegExp(`^/v1/files/${organizationId}/${projectId}/r\\d+\\.png$`));
    const console = rows.find((row) => row.apiKeyId === null);
    expect(console?.caller).toBe(PLAYGROUND_CALLER);
    const failed = rows.find((row) => row.status === "error");
    expect(failed?.cost).toBe(0);
    const running = rows.find((row) => row.status === "generating");
    expect(running?.durationMs).toBeNull();
    const upscaled = rows.find((row) => row.projectId === secondProjectId);
    expect(upscaled).toMatchObject({
      feature: upscalingFeature.name,
      projectName: "Second",
      resultUrl: null,
    });
  });

  it("filters by feature, API key, the console, status and days, and pages the filtered list", async () => {
    const projectIds = [projectId, secondProjectId];
    const cases: { filter: object; where: (SQL | undefined)[] }[] = [
      {
        filter: { endpoint: "/v1/speech/transcription" },
        where: [eq(featureRequests.endpoint, "/v1/speech/transcription")],
      },
      { filter: { apiKeyId }, where: [eq(featureRequests.apiKeyId, apiKeyId)] },
      { filter: { apiKeyId: PLAYGROUND_CALLER_FILTER }, where: [isNull(featureRequests.apiKeyId)] },
      { filter: { status: "error" }, where: [eq(featureRequests.status, "error")] },
      {
        filter: { from: "2026-03-02", to: "2026-03-04" },
        where: [
          gte(featureRequests.createdAt, new Date("2026-03-02T00:00:00Z")),
          lt(featureRequests.createdAt, new Date("2026-03-05T00:00:00Z")),
        ],
      },
      {
        filter: { endpoint: "/v1/images/background-removal", status: "done", apiKeyId, to: "2026-03-03" },
        where: [
          eq(featureRequests.endpoint, "/v1/images/background-removal"),
          eq(featureRequests.status, "done"),
          eq(featureRequests.apiKeyId, apiKeyId),
          lt(featureRequests.createdAt, new Date("2026-03-04T00:00:00Z")),
        ],
      },
    ];
    for (const { filter, where } of cases) {
      const expected = await expectedIds(...where);
      expect(expected.length, JSON.stringify(filter)).toBeGreaterThan(0);
      const { rows } = await allPages({ organizationId, projectIds, ...filter });
      expect(
        rows.map((row) => row.id),
        JSON.stringify(filter),
      ).toEqual(expected);
    }
    const onlySecond = await allPages({ organizationId, projectIds: [secondProjectId] });
    expect(onlySecond.rows.map((row) => row.id)).toEqual(
      await expectedIds(eq(featureRequests.projectId, secondProjectId)),
    );
  });

  it("offers the projects' keys, and no other organization's, for the key filter", async () => {
    const response = await list({ organizationId, projectIds: [projectId] });
    expect(response.json().apiKeys).toEqual([
      { id: apiKeyId, name: "Alpha", projectName: "Default Project" },
    ]);
  });

  it("refuses another organization's project, organization and key, and lists nothing of theirs", async () => {
    const mixed = await list({ organizationId, projectIds: [projectId, strangerProjectId] });
    expect(mixed.statusCode).toBe(404);
    expect(mixed.json()).toMatchObject({ error: "not-found", message: NOT_FOUND_PROJECT });
    const theirs = await list({ organizationId: strangerOrganizationId, projectIds: [strangerProjectId] });
    expect(theirs.statusCode).toBe(404);
    // The stranger names the owner's organization and project: the same 404 as ids that never existed.
    const intruder = await list({ organizationId, projectIds: [projectId] }, strangerSession);
    expect(intruder.statusCode).toBe(404);
    expect(intruder.body).not.toContain(apiKeyId);
    const foreignKey = await list({ organizationId, projectIds: [projectId], apiKeyId: strangerKeyId });
    expect(foreignKey.statusCode).toBe(404);
    expect(foreignKey.json().message).toBe(API_KEY_NOT_FOUND);
    const own = await list(
      { organizationId: strangerOrganizationId, projectIds: [strangerProjectId] },
      strangerSession,
    );
    expect(own.statusCode).toBe(200);
    expect(own.json().requests).toHaveLength(1);
  });

  it("refuses a member the projects they may not use, and lists those they may", async () => {
    const member = await addMember(
      testApp,
      session,
      organizationId,
      permissionsWith([`projects.${secondProjectId}`]),
    );
    const refused = await list({ organizationId, projectIds: [projectId, secondProjectId] }, member.session);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe("forbidden");
    const allowed = await list({ organizationId, projectIds: [secondProjectId] }, member.session);
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json().requests).toHaveLength(SECOND_ROWS);
  });

  it("answers 400 with the contract's text to a cursor it did not make, and to bad filters", async () => {
    const base = { organizationId, projectIds: [projectId] };
    const forged = Buffer.from(JSON.stringify(["2026-03-01'; drop table users; --", "x"])).toString(
      "base64url",
    );
    const impossible = Buffer.from(
      JSON.stringify(["2026-02-30 00:00:00+00", "00000000-0000-4000-8000-000000000000"]),
    ).toString("base64url");
    for (const cursor of ["not-a-cursor", forged, impossible, Buffer.from("[1,2]").toString("base64url")]) {
      const response = await list({ ...base, cursor });
      expect(response.statusCode, cursor).toBe(400);
      expect(response.json().message).toBe(INVALID_REQUESTS_CURSOR);
    }
    for (const filter of [
      { from: "2026-03-05", to: "2026-03-01" },
      { endpoint: "/v1/images/nothing" },
      { status: "lost" },
      { projectIds: [] },
    ]) {
      const response = await list({ ...base, ...filter });
      expect(response.statusCode, JSON.stringify(filter)).toBe(400);
    }
  });
});
