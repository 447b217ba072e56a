import { HISTORY_MAX_OFFSET, HISTORY_PAGE_SIZE, INVALID_REQUESTS_CURSOR } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { featureRequests } from "../../db/schema";

const ENDPOINT = "/v1/images/background-removal";
const HISTORY = "/v1/users/playground/get-requests";

/**
 * The playground history by cursor (issue 35): every call once, newest first, across pages whose rows
 * share instants; the spec's offset still pages the same way, up to its bound.
 */
describe("playground history paging", () => {
  let testApp: TestApp;
  let owner: Awaited<ReturnType<typeof signUpAndConfirm>>;
  let projectId: string;
  const expectedIds: string[] = [];

  beforeAll(async () => {
    testApp = await createTestApp();
    owner = await signUpAndConfirm(testApp);
    const organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    // 45 calls, three to an instant, so pages end in the middle of an instant; one of them deleted.
    const base = Date.parse("2026-10-01T12:00:00.000Z");
    const rows = await testApp.database.db
      .insert(featureRequests)
      .values(
        Array.from({ length: 45 }, (_, index) => ({
          organizationId,
          projectId,
          userId: owner.userInfo.id,
          endpoint: ENDPOINT,
          callType: "background-removal",
          status: "done" as const,
          provider: "builtin",
          requestFiles: {},
          requestBody: {},
          units: 1,
          priceMicros: 10_000n,
          createdAt: new Date(base + Math.floor(index / 3) * 1_000),
          deletedAt: index === 7 ? new Date() : null,
        })),
      )
      .returning({
        id: featureRequests.id,
        createdAt: featureRequests.createdAt,
        deletedAt: featureRequests.deletedAt,
      });
    expectedIds.push(
      ...rows
        .filter((row) => row.deletedAt === null)
        .sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1))
        .map((row) => row.id),
    );
  });

  afterAll(async () => {
    await testApp?.close();
  });

  const page = (body: object) =>
    post(testApp, HISTORY, { projectId, endpoint: ENDPOINT, ...body }, { session: owner.session });

  it("pages by cursor through every call once, in the order offsets give", async () => {
    const byCursor: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const response = await page(cursor ? { cursor } : {});
      expect(response.statusCode, response.body).toBe(200);
      const answer = response.json();
      byCursor.push(...answer.requests.map((request: { id: string }) => request.id));
      expect(answer.hasMoreItems).toBe(answer.nextCursor !== null);
      cursor = answer.nextCursor;
      pages += 1;
    } while (cursor !== null && pages < 10);
    expect(pages).toBe(Math.ceil(44 / HISTORY_PAGE_SIZE));
    expect(byCursor).toEqual(expectedIds);

    const byOffset: string[] = [];
    for (let offset = 0; offset < 44; offset += HISTORY_PAGE_SIZE) {
      const response = await page({ offset });
      byOffset.push(...response.json().requests.map((request: { id: string }) => request.id));
    }
    expect(byOffset).toEqual(expectedIds);
  });

  it("refuses an offset past its bound and a cursor it did not make", async () => {
    expect((await page({ offset: HISTORY_MAX_OFFSET })).statusCode).toBe(200);
    const deep = await page({ offset: HISTORY_MAX_OFFSET + 1 });
    expect(deep.statusCode).toBe(400);
    const forged = await page({ cursor: Buffer.from('["not a time","x"]').toString("base64url") });
    expect(forged.statusCode).toBe(400);
    expect(forged.json().message).toBe(INVALID_REQUESTS_CURSOR);
  });
});
