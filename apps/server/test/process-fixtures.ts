import { and, eq, isNotNull } from "drizzle-orm";
import sharp from "sharp";
import { buildApp } from "../src/app";
import { createDependencies } from "../src/app-dependencies";
import { loadConfig } from "../src/config";
import { type DatabaseHandle, openDatabase, pgliteDirFor } from "../src/db/client";
import { featureRequests, ledgerEntries } from "../src/db/schema";
import { cachedBalance, credit, ledgerBalance } from "../src/modules/ledger/ledger.service";
import { post, signUpAndConfirm } from "./accounts";
import { multipart } from "./images";
import type { createProcessStorage, ServerProcess } from "./server-process";
import type { TestApp } from "./test-app";

/**
 * Helpers for tests that run the server as real processes (test/server-process.ts): accounts made
 * in-process on the processes' storage before they start, money read back from the database, and
 * feature calls sent over HTTP.
 */

export type ProcessStorage = Awaited<ReturnType<typeof createProcessStorage>>;

export function openStorage(storage: ProcessStorage): DatabaseHandle {
  return openDatabase(
    storage.databaseUrl ? { databaseUrl: storage.databaseUrl } : { pgliteDir: pgliteDirFor(storage.dataDir) },
  );
}

export interface SeededAccount {
  organizationId: string;
  projectId: string;
  apiKey: string;
  session: string;
  email: string;
}

/** A signed-up owner with `fundsMicros` granted to the organization and an API key. */
export async function seedAccount(
  storage: ProcessStorage,
  fundsMicros: bigint,
  env: Record<string, string> = {},
): Promise<SeededAccount> {
  const database = openStorage(storage);
  await database.migrate();
  const config = loadConfig({
    APP_ENV: "test",
    LOG_LEVEL: "silent",
    BUILTIN_ENGINE: "off",
    ...storage.env,
    ...env,
  });
  const deps = createDependencies(config, database);
  const app = await buildApp(deps, { logger: false, runJobs: false });
  await app.ready();
  const testApp: TestApp = { app, deps, database, config, close: () => app.close() };
  try {
    const owner = await signUpAndConfirm(testApp);
    const organizationId: string = owner.userInfo.organizations[0].id;
    const projectId: string = owner.userInfo.organizations[0].projects[0].id;
    const apiKey: string = (
      await post(
        testApp,
        "/v1/users/api-keys/insert",
        { projectId, apiKeyName: "process" },
        { session: owner.session },
      )
    ).json().apiKey.content;
    if (fundsMicros > 0n) {
      await database.db.transaction((tx) =>
        credit(tx, { organizationId, amountMicros: fundsMicros, reference: `grant-${organizationId}` }),
      );
    }
    return { organizationId, projectId, apiKey, session: owner.session, email: owner.email };
  } finally {
    await app.close();
  }
}

/** The organization's call ledger entries, request rows and balances. */
export async function readMoney(db: DatabaseHandle["db"], organizationId: string) {
  const entries = await db
    .select()
    .from(ledgerEntries)
    .where(and(eq(ledgerEntries.organizationId, organizationId), isNotNull(ledgerEntries.requestId)));
  const rows = await db
    .select()
    .from(featureRequests)
    .where(eq(featureRequests.organizationId, organizationId));
  return {
    entries,
    rows,
    balance: await cachedBalance(db, organizationId),
    ledger: await ledgerBalance(db, organizationId),
  };
}

/** Ledger entry kinds per call (request id), each list sorted. */
export function kindsByRequest(entries: { requestId: string | null; kind: string }[]): Map<string, string[]> {
  const byRequest = new Map<string, string[]>();
  for (const { requestId, kind } of entries) {
    if (requestId) byRequest.set(requestId, [...(byRequest.get(requestId) ?? []), kind].sort());
  }
  return byRequest;
}

let testPng: Promise<Buffer> | undefined;

/** A feature call over HTTP to a server process, authenticated by API key (one small image by default). */
export async function callFeature(
  server: Pick<ServerProcess, "url">,
  apiKey: string,
  endpoint: string,
  parts?: Parameters<typeof multipart>[0],
) {
  testPng ??= sharp({ create: { width: 16, height: 16, channels: 3, background: "#806040" } })
    .png()
    .toBuffer();
  const body = multipart(
    parts ?? [{ name: "image", value: await testPng, filename: "p.png", contentType: "image/png" }],
  );
  const response = await fetch(`${server.url}${endpoint}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType },
    body: body.payload,
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, json: json as Record<string, unknown>, text };
}
