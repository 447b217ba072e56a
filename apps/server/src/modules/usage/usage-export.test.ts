import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import {
  microsToDecimalText,
  PLAYGROUND_CALLER,
  USAGE_EXPORT_COLUMNS,
  USAGE_EXPORT_PATH,
  USAGE_SUMMARY_COLUMNS,
  USAGE_SUMMARY_EXPORT_PATH,
} from "@prism/contract";
import { stringify } from "csv-stringify/sync";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { post, signUpAndConfirm } from "../../../test/accounts";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { apiKeys, featureRequests } from "../../db/schema";
import { SAFE_CSV_OPTIONS } from "../../http/csv";
import { addUsage } from "../features/feature-requests.store";
import { DEFAULT_PROJECT_NAME } from "../organizations/organizations.store";
import { EXPORT_BATCH_ROWS } from "./usage.routes";
import { featureName } from "./usage.store";

/**
 * The home page's CSV exports over real HTTP: every call of a month, streamed from the request log in
 * keyset batches (100,000 rows, chunked, never held whole), and the per-day-per-feature summary from
 * the daily rollup.
 */

const MONTH = "2026-03";
const ROWS = 100_000;

/**
 * A full garbage collection. Vitest does not start its workers with `--expose-gc`; the flag set at run
 * time takes effect for contexts created afterwards, so a new context gets the `gc` function.
 */
function garbageCollector(): () => void {
  setFlagsFromString("--expose-gc");
  return runInNewContext("gc") as () => void;
}

/**
 * What the process holds on its JavaScript heap: where an export would keep a month of rows or of CSV
 * text (objects, arrays, strings). Buffers are left out: the embedded database's WebAssembly memory is
 * counted among them and grows in large steps that have nothing to do with the export.
 */
function heldBytes(): number {
  return process.memoryUsage().heapUsed;
}

describe("CSV exports of the usage", () => {
  let testApp: TestApp;
  let origin: string;
  let session: string;
  let projectId: string;
  let secondProjectId: string;
  let strangerProjectId: string;
  let apiKeyId: string;
  let organizationId: string;

  const download = (path: string, projectIds: string[], cookie = session) =>
    fetch(`${origin}${path}?month=${MONTH}&projectIds=${projectIds.join(",")}`, {
      headers: { cookie: `prism_session=${cookie}` },
    });

  beforeAll(async () => {
    testApp = await createTestApp();
    origin = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    const owner = await signUpAndConfirm(testApp);
    session = owner.session;
    organizationId = owner.userInfo.organizations[0].id;
    projectId = owner.userInfo.organizations[0].projects[0].id;
    const created = await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: 'Second, "quoted" project' },
      { session },
    );
    expect(created.statusCode, created.body).toBe(200);
    secondProjectId = created.json().id;
    apiKeyId = (
      await post(testApp, "/v1/users/api-keys/insert", { projectId, apiKeyName: "Alpha" }, { session })
    ).json().apiKey.id;
    const stranger = await signUpAndConfirm(testApp);
    strangerProjectId = stranger.userInfo.organizations[0].projects[0].id;
    const strangerOrganization = stranger.userInfo.organizations[0].id;

    // 100,000 calls of the first project in March, two per timestamp (the keyset must break the tie
    // by id): every third by the console, every tenth failed.
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type, status,
        provider, request_files, request_body, units, price_micros, created_at)
      select ${organizationId}, ${projectId}, case when i % 3 = 0 then null else ${apiKeyId}::uuid end,
        '/v1/images/background-removal', 'background-removal',
        case when i % 10 = 0 then 'error' else 'done' end, 'http', '{}'::jsonb, '{}'::jsonb, 1, 12345,
        timestamptz '2026-03-01 00:00:00+00' + ((i / 2) * interval '40 seconds')
      from generate_series(1, ${ROWS}) as i`);
    // Outside the export: another month, and a stranger's project.
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, endpoint, call_type, status, provider,
        request_files, request_body, units, price_micros, created_at)
      values (${organizationId}, ${projectId}, '/v1/images/background-removal', 'background-removal', 'done',
          'http', '{}', '{}', 1, 1, timestamptz '2026-04-01 00:00:00+00'),
        (${strangerOrganization}, ${strangerProjectId}, '/v1/images/background-removal', 'background-removal',
          'done', 'http', '{}', '{}', 1, 1, timestamptz '2026-03-05 00:00:00+00'),
        (${organizationId}, ${secondProjectId}, '/v1/speech/transcription', 'transcription', 'done', 'http',
          '{}', '{}', 3, 30000, timestamptz '2026-03-31 23:59:59.999999+00')`);
    await testApp.database.db.transaction(async (tx) => {
      const rollup = [
        { projectId, endpoint: "/v1/images/background-removal", day: "2026-03-02", units: 5, cost: 61_725n },
        { projectId, endpoint: "/v1/speech/transcription", day: "2026-03-02", units: 2, cost: 20_000n },
        {
          projectId: secondProjectId,
          endpoint: "/v1/images/background-removal",
          day: "2026-03-02",
          units: 1,
          cost: 12_345n,
        },
        {
          projectId: strangerProjectId,
          endpoint: "/v1/images/background-removal",
          day: "2026-03-02",
          units: 9,
          cost: 90_000n,
        },
        { projectId, endpoint: "/v1/images/background-removal", day: "2026-04-01", units: 1, cost: 1n },
      ];
      for (const row of rollup) {
        await addUsage(tx, {
          projectId: row.projectId,
          apiKeyId: null,
          endpoint: row.endpoint,
          callType: row.endpoint.split("/").at(-1) ?? "",
          day: row.day,
          units: row.units,
          costMicros: row.cost,
        });
      }
    });
  }, 120_000);

  afterAll(async () => {
    await testApp?.close();
  });

  it("streams every call of the month, chunked, one row each, in keyset batches", async () => {
    const response = await download(USAGE_EXPORT_PATH, [projectId, secondProjectId, strangerProjectId]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="prism-usage-${MONTH}-calls.csv"`,
    );
    // Streamed: no length known up front, the body arrives in many chunks.
    expect(response.headers.get("transfer-encoding")).toBe("chunked");
    expect(response.headers.get("content-length")).toBeNull();

    const decoder = new TextDecoder();
    let chunks = 0;
    let pending = "";
    let header: string | undefined;
    const ids = new Set<string>();
    const counts = { playground: 0, key: 0, error: 0, rows: 0 };
    let lastSample: string[] | undefined;
    let secondProjectRow: string | undefined;
    const reader = response.body!.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks += 1;
      pending += decoder.decode(value, { stream: true });
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (header === undefined) {
          header = line;
          continue;
        }
        if (line.includes("Speech to Text")) {
          secondProjectRow = line;
          counts.rows += 1;
          continue;
        }
        const cells = line.split(",");
        counts.rows += 1;
        ids.add(cells[8] ?? "");
        if (cells[4] === PLAYGROUND_CALLER) counts.playground += 1;
        if (cells[4] === "Alpha") counts.key += 1;
        if (cells[5] === "error") {
          counts.error += 1;
          expect(cells[7]).toBe("0.000000");
        } else expect(cells[7]).toBe("0.012345");
        lastSample = cells;
      }
    }
    expect(pending).toBe("");
    expect(header).toBe(USAGE_EXPORT_COLUMNS.join(","));
    expect(counts.rows).toBe(ROWS + 1);
    expect(ids.size).toBe(ROWS);
    expect(counts.playground).toBe(Math.floor(ROWS / 3));
    expect(counts.key).toBe(ROWS - Math.floor(ROWS / 3));
    expect(counts.error).toBe(ROWS / 10);
    expect(chunks).toBeGreaterThan(ROWS / EXPORT_BATCH_ROWS);
    // The last of the first project's calls (number 100,000: by a key, failed), its time in UTC.
    expect(lastSample?.slice(0, 7)).toEqual([
      new Date(Date.UTC(2026, 2, 1) + (ROWS / 2) * 40_000).toISOString(),
      DEFAULT_PROJECT_NAME,
      "/v1/images/background-removal",
      "Background Removal",
      "Alpha",
      "error",
      "1",
    ]);
    // A name with a comma and quotes is quoted by the CSV library, not broken into cells.
    expect(secondProjectRow).toContain('"Second, ""quoted"" project"');
    expect(secondProjectRow).toContain(`,${PLAYGROUND_CALLER},done,3,0.030000,`);
    // The time as a Date writes it: UTC, the microseconds cut off, not rounded into April.
    expect(secondProjectRow?.split(",")[0]).toBe(new Date("2026-03-31T23:59:59.999999Z").toISOString());
    expect(secondProjectRow?.split(",")[0]).toBe("2026-03-31T23:59:59.999Z");
  }, 120_000);

  // The database writes the rows (exportBatchText): compared here with csv-stringify's bytes for the same
  // calls read back as rows, over names that need quoting or the formula escape, a feature the catalog no
  // longer has, both failure statuses, a price with every digit and more than one keyset batch.
  it("writes each call as csv-stringify writes it from the request log's row", async () => {
    const created = await post(
      testApp,
      "/v1/users/projects/create",
      { organizationId, name: '@SUM(1+1), "names"' },
      { session },
    );
    expect(created.statusCode, created.body).toBe(200);
    const thirdProjectId: string = created.json().id;
    const keyIds: string[] = [];
    for (const apiKeyName of ["=HYPERLINK(1)", 'Comma, "quoted" key']) {
      const inserted = await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId: thirdProjectId, apiKeyName },
        { session },
      );
      expect(inserted.statusCode, inserted.body).toBe(200);
      keyIds.push(inserted.json().apiKey.id);
    }
    const calls = EXPORT_BATCH_ROWS * 2 + 7;
    await testApp.database.db.execute(sql`
      insert into feature_requests (organization_id, project_id, api_key_id, endpoint, call_type, status,
        provider, request_files, request_body, units, price_micros, created_at)
      select ${organizationId}, ${thirdProjectId},
        case i % 3 when 0 then null when 1 then ${keyIds[0]}::uuid else ${keyIds[1]}::uuid end,
        case when i % 5 = 0 then '/v1/retired/feature' else '/v1/images/upscaling' end, 'upscaling',
        case i % 7 when 0 then 'error' when 1 then 'canceled' else 'done' end, 'http', '{}', '{}',
        i % 4, case when i % 2 = 0 then 1234567 else 0 end,
        timestamptz '2026-03-10 12:00:00.123456+00' + (i * interval '1.000001 seconds')
      from generate_series(1, ${calls}) as i`);

    const rows = await testApp.database.db
      .select({
        createdAt: featureRequests.createdAt,
        endpoint: featureRequests.endpoint,
        apiKeyName: apiKeys.name,
        apiKeyId: featureRequests.apiKeyId,
        status: featureRequests.status,
        units: featureRequests.units,
        priceMicros: featureRequests.priceMicros,
        id: featureRequests.id,
      })
      .from(featureRequests)
      .leftJoin(apiKeys, eq(apiKeys.id, featureRequests.apiKeyId))
      .where(eq(featureRequests.projectId, thirdProjectId))
      .orderBy(asc(featureRequests.createdAt), asc(featureRequests.id));
    expect(rows).toHaveLength(calls);
    const expected = stringify(
      rows.map((row) => [
        row.createdAt.toISOString(),
        '@SUM(1+1), "names"',
        row.endpoint,
        featureName(row.endpoint),
        row.apiKeyId ? (row.apiKeyName ?? "") : PLAYGROUND_CALLER,
        row.status,
        String(row.units),
        microsToDecimalText(row.status === "error" || row.status === "canceled" ? 0n : row.priceMicros),
        row.id,
      ]),
      { ...SAFE_CSV_OPTIONS, header: true, columns: [...USAGE_EXPORT_COLUMNS] },
    );
    const response = await download(USAGE_EXPORT_PATH, [thirdProjectId]);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain(`'@SUM(1+1), ""names""`);
    expect(text).toContain("'=HYPERLINK(1)");
    expect(text).toContain(",/v1/retired/feature,/v1/retired/feature,");
    expect(text).toContain(",done,2,1.234567,");
    expect(text).toBe(expected);
  }, 120_000);

  // The server answers in this process (listening on a port, asked by this process's fetch), so this
  // process's memory is the server's. Peak heap readings alone would measure the garbage collector's
  // timing more than the export (garbage accumulates well past the size of the CSV before a collection
  // on a busy machine), so each reading comes after a full collection: it counts only what is still
  // held. An export that built the month before sending, or buffered what the client has not taken,
  // would hold at least the CSV's size at some reading; a streamed one holds a batch and the streams'
  // buffers. The test keeps nothing it reads.
  it("holds far less than the month's CSV in memory at any point while streaming it", async () => {
    const collect = garbageCollector();
    collect();
    const baseline = heldBytes();
    const response = await download(USAGE_EXPORT_PATH, [projectId, secondProjectId, strangerProjectId]);
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const readingEvery = 512 * 1024;
    let bytes = 0;
    let nextReading = readingEvery;
    let readings = 0;
    let peakGrowth = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      bytes += value.byteLength;
      if (bytes >= nextReading) {
        nextReading += readingEvery;
        collect();
        readings += 1;
        peakGrowth = Math.max(peakGrowth, heldBytes() - baseline);
      }
    }
    // The month is over 10 MB of CSV (about 15), read at many points along the way.
    expect(bytes).toBeGreaterThan(10 * 1024 * 1024);
    expect(readings).toBeGreaterThan(15);
    expect(peakGrowth, `peak growth ${peakGrowth} of a CSV of ${bytes} bytes`).toBeLessThan(bytes / 3);
  }, 120_000);

  it("sums the month per day and feature over the projects the caller may see", async () => {
    const response = await download(USAGE_SUMMARY_EXPORT_PATH, [
      projectId,
      secondProjectId,
      strangerProjectId,
    ]);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain(`prism-usage-${MONTH}-summary.csv`);
    expect((await response.text()).trim().split("\n")).toEqual([
      USAGE_SUMMARY_COLUMNS.join(","),
      "2026-03-02,/v1/images/background-removal,Background Removal,2,6,0.074070",
      "2026-03-02,/v1/speech/transcription,Speech to Text,1,2,0.020000",
    ]);
  });

  it("refuses a month that is not one, and a caller with none of the projects", async () => {
    const bad = await fetch(`${origin}${USAGE_EXPORT_PATH}?month=2026-13&projectIds=${projectId}`, {
      headers: { cookie: `prism_session=${session}` },
    });
    expect(bad.status).toBe(400);
    const foreign = await download(USAGE_EXPORT_PATH, [strangerProjectId]);
    expect(foreign.status).toBe(404);
  });
});
