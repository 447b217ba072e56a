import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { EngineError } from "./errors";
import { createWorkerPool } from "./pool";

const filename = fileURLToPath(new URL("../test/workers/misbehaving.mjs", import.meta.url));

describe("worker pool", () => {
  // A job's time includes its worker's start on first use, which a loaded CI machine can stretch past a
  // second; the hanging job still ends at the timeout, far before it would on its own (never).
  const pool = createWorkerPool({ filename, workers: 2, jobTimeoutMs: 3_000 });
  afterAll(() => pool.close());

  it("runs jobs in worker threads", async () => {
    const result = await pool.run<{ value: number; threadId: number }>({ action: "echo", value: 7 });
    expect(result.value).toBe(7);
    expect(result.threadId).toBeGreaterThan(0);
  });

  it("fails only the job that throws", async () => {
    const [failed, fine] = await Promise.allSettled([
      pool.run({ action: "throw" }),
      pool.run<{ value: number }>({ action: "echo", value: 1 }),
    ]);
    expect(failed.status).toBe("rejected");
    expect(fine).toMatchObject({ status: "fulfilled", value: { value: 1 } });
  });

  it("fails only the job whose worker crashes, and keeps serving", async () => {
    await expect(pool.run({ action: "crash" })).rejects.toMatchObject({ code: "internal" });
    await expect(pool.run({ action: "echo", value: 2 })).resolves.toMatchObject({ value: 2 });
  });

  it("kills a job past its timeout and runs the next job", async () => {
    const started = Date.now();
    const error = await pool.run({ action: "hang" }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(EngineError);
    expect((error as EngineError).code).toBe("timeout");
    expect(Date.now() - started).toBeLessThan(10_000);
    const results = await Promise.all([
      pool.run<{ value: number }>({ action: "echo", value: 3 }),
      pool.run<{ value: number }>({ action: "echo", value: 4 }),
    ]);
    expect(results.map((r) => r.value)).toEqual([3, 4]);
  });

  it("stops a job when the caller aborts it", async () => {
    const controller = new AbortController();
    const job = pool.run({ action: "hang" }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    await expect(job).rejects.toMatchObject({ code: "aborted" });
  });
});
