import type { RequestDetail } from "@prism/contract";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { multipart } from "../../../test/images";
import { kindsByRequest, openStorage, readMoney, seedAccount } from "../../../test/process-fixtures";
import { eventually, startQueueModelServer } from "../../../test/queue-model-server";
import { createProcessStorage, type ServerProcess, startServerProcess } from "../../../test/server-process";
import { featureRequests } from "../../db/schema";

/**
 * The call queue across real server processes (issue 29): money exact with asynchronous calls spread
 * over two processes, one provider capacity shared by both, and nothing lost when a process dies.
 */

const PRICE = 20_000n;
const GENERATION = "/v1/images/generation";
const generationParts = (tag: string) => [
  { name: "prompt", value: tag },
  { name: "width", value: "256" },
  { name: "height", value: "256" },
];

async function submitAsync(server: ServerProcess, apiKey: string, tag: string) {
  const body = multipart(generationParts(tag));
  const response = await fetch(`${server.url}${GENERATION}`, {
    method: "POST",
    headers: { authorization: `Bearer ${apiKey}`, "content-type": body.contentType, prefer: "respond-async" },
    body: body.payload,
  });
  return { status: response.status, json: (await response.json()) as RequestDetail & { error?: string } };
}

const cleanups: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
});

describe.skipIf(!process.env.DATABASE_URL)("the call queue over two processes (needs DATABASE_URL)", () => {
  it("reserves exactly what the balance covers for 200 submissions, runs them within one shared capacity, and refunds exactly the canceled", async () => {
    const model = await startQueueModelServer();
    cleanups.push(() => model.close());
    model.control.hold = true;
    const storage = await createProcessStorage();
    cleanups.push(() => storage.remove());
    const account = await seedAccount(storage, 50n * PRICE);
    const env = {
      ...storage.env,
      ...model.env("image-generation", 4),
      PROVIDER_TIMEOUT_MS: "60000",
      API_KEY_REQUESTS_PER_MINUTE: "0",
    };
    const [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    cleanups.push(
      () => a.stop("SIGKILL"),
      () => b.stop("SIGKILL"),
    );

    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, index) =>
        submitAsync(index % 2 === 0 ? a : b, account.apiKey, `call ${index}`),
      ),
    );
    const accepted = answers.filter((answer) => answer.status === 202).map((answer) => answer.json);
    const refused = answers.filter((answer) => answer.status === 402);
    expect(accepted).toHaveLength(50);
    expect(refused).toHaveLength(150);
    for (const answer of refused) expect(answer.json.error).toBe("insufficient-balance");

    // Twenty of the accepted are canceled, through either process, whether queued or running.
    const canceled = accepted.slice(0, 20).map((detail) => detail.id);
    for (const [index, id] of canceled.entries()) {
      const server = index % 2 === 0 ? b : a;
      const response = await fetch(`${server.url}/v1/requests/${id}/cancel`, {
        method: "POST",
        headers: { authorization: `Bearer ${account.apiKey}` },
      });
      expect(response.status, await response.clone().text()).toBe(200);
      expect(((await response.json()) as RequestDetail).status).toBe("canceled");
    }

    const database = openStorage(storage);
    cleanups.push(() => database.close());
    const rows = () =>
      database.db
        .select()
        .from(featureRequests)
        .where(eq(featureRequests.organizationId, account.organizationId));
    await eventually(
      async () => {
        model.release();
        return (await rows()).every((row) => row.status === "done" || row.status === "canceled");
      },
      "every call to end",
      90_000,
    );
    // Never more than the shared capacity at the model, whichever process started them.
    expect(model.mostAtOnce).toBeLessThanOrEqual(4);

    const money = await readMoney(database.db, account.organizationId);
    expect(money.rows).toHaveLength(50);
    const byStatus = new Map<string, number>();
    for (const row of money.rows) byStatus.set(row.status, (byStatus.get(row.status) ?? 0) + 1);
    expect(Object.fromEntries(byStatus)).toEqual({ done: 30, canceled: 20 });
    const kinds = kindsByRequest(money.entries);
    for (const row of money.rows) {
      expect(kinds.get(row.id), row.status).toEqual(
        row.status === "done" ? ["reservation", "settlement"] : ["refund", "reservation"],
      );
    }
    expect(money.balance).toBe(20n * PRICE);
    expect(money.ledger).toBe(money.balance);
  }, 180_000);
});

describe("a process that dies with calls in its queue", () => {
  it("loses nothing: its queued calls run in the next process, its running call is refunded once", async () => {
    const model = await startQueueModelServer();
    cleanups.push(() => model.close());
    model.control.hold = true;
    const storage = await createProcessStorage();
    cleanups.push(() => storage.remove());
    const account = await seedAccount(storage, 1_000_000n);
    const env = {
      ...storage.env,
      ...model.env("image-generation", 1),
      PROVIDER_TIMEOUT_MS: "60000",
      CALL_LEASE_MS: "1000",
      REQUEST_SWEEP_INTERVAL_MS: "250",
    };
    const doomed = await startServerProcess(env);
    cleanups.push(() => doomed.stop("SIGKILL"));
    const ids: string[] = [];
    for (const tag of ["running when killed", "queued 1", "queued 2"]) {
      const answer = await submitAsync(doomed, account.apiKey, tag);
      expect(answer.status).toBe(202);
      ids.push(answer.json.id);
    }
    await eventually(() => model.held.length === 1, "the first call to reach the model");
    await doomed.stop("SIGKILL");

    model.control.hold = false;
    const next = await startServerProcess(env);
    cleanups.push(() => next.stop("SIGKILL"));
    await eventually(
      async () => {
        const answers = await Promise.all(
          ids.map(async (id) => {
            const response = await fetch(`${next.url}/v1/requests/${id}`, {
              headers: { authorization: `Bearer ${account.apiKey}` },
            });
            return ((await response.json()) as RequestDetail).status;
          }),
        );
        return answers.every((status) => status === "succeeded" || status === "failed");
      },
      "every call to end in the next process",
      60_000,
    );
    await next.stop("SIGTERM");

    const database = openStorage(storage);
    cleanups.push(() => database.close());
    const money = await readMoney(database.db, account.organizationId);
    const statusOf = (id: string) => money.rows.find((row) => row.id === id)?.status;
    expect(ids.map(statusOf)).toEqual(["error", "done", "done"]);
    const kinds = kindsByRequest(money.entries);
    expect(kinds.get(ids[0] ?? "")).toEqual(["refund", "reservation"]);
    expect(kinds.get(ids[1] ?? "")).toEqual(["reservation", "settlement"]);
    expect(money.balance).toBe(1_000_000n - 2n * PRICE);
    expect(money.ledger).toBe(money.balance);
    expect(
      model.received
        .map((call) => call.tag)
        .filter((tag) => tag?.startsWith("queued"))
        .sort(),
    ).toEqual(["queued 1", "queued 2"]);
  }, 180_000);
});
