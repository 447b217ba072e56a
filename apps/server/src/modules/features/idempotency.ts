import { createHash } from "node:crypto";
import {
  type FeatureCallResponse,
  IDEMPOTENCY_IN_PROGRESS,
  IDEMPOTENCY_IN_PROGRESS_RETRY_AFTER_SECONDS,
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_KEY_REUSED,
  IDEMPOTENCY_RETENTION_HOURS,
  idempotencyKeyInvalidText,
  type RequestDetail,
} from "@prism/contract";
import type { FastifyRequest } from "fastify";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import { deleteStaleKey, findKey, insertRunningKey } from "./idempotency.store";

/**
 * `Idempotency-Key` on feature calls (issue 17), as Stripe's API has it: the first call with a key
 * claims it (one insert under the (scope, key) primary key, so of concurrent duplicates exactly one
 * runs), and its answer is stored for IDEMPOTENCY_RETENTION_HOURS. A retry with the same request gets
 * that answer again without running or paying; while the first is still running the retry waits for it
 * (up to IDEMPOTENCY_WAIT_SECONDS, then 409 `idempotency-in-progress`). Only successful answers are
 * stored: a call that failed was refunded, so its key is released and a retry runs again.
 */

const RETENTION_MS = IDEMPOTENCY_RETENTION_HOURS * 3_600_000;
const POLL_MS = 50;

/** The request's Idempotency-Key, checked from the headers alone (400 when empty or too long). */
export function idempotencyKeyOf(request: FastifyRequest): string | undefined {
  const value = request.headers[IDEMPOTENCY_KEY_HEADER];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value.length === 0 || value.length > IDEMPOTENCY_KEY_MAX_LENGTH) {
    throw new AppError("invalid-input", idempotencyKeyInvalidText(IDEMPOTENCY_KEY_MAX_LENGTH));
  }
  return value;
}

/** SHA-256 over the method, path, extra headers, fields (sorted by name) and every file's bytes. */
export function hashFeatureRequest(input: {
  method: string;
  path: string;
  headers: Record<string, string>;
  fields: Record<string, string>;
  files: Record<string, Buffer[]>;
}): string {
  const hash = createHash("sha256");
  const part = (text: string) => hash.update(`${Buffer.byteLength(text)}:${text}`);
  part(input.method.toUpperCase());
  part(input.path);
  for (const [name, value] of Object.entries(input.headers).sort(([a], [b]) => a.localeCompare(b))) {
    part(`header ${name}`);
    part(value);
  }
  for (const [name, value] of Object.entries(input.fields).sort(([a], [b]) => a.localeCompare(b))) {
    part(`field ${name}`);
    part(value);
  }
  for (const [name, buffers] of Object.entries(input.files).sort(([a], [b]) => a.localeCompare(b))) {
    for (const buffer of buffers) {
      part(`file ${name} ${buffer.length}`);
      hash.update(buffer);
    }
  }
  return hash.digest("hex");
}

export type IdempotencyClaim =
  | { kind: "claimed" }
  | { kind: "replay"; status: number; body: FeatureCallResponse | RequestDetail | null };

/**
 * Claims `key` for this request, or returns the answer stored for it. A row still `running` after
 * `staleAfterMs` belonged to a process that crashed mid-call (its reservation is refunded by the
 * sweeper) and is taken over.
 */
export async function claimIdempotencyKey(
  db: Database,
  input: { scope: string; key: string; requestHash: string },
  options: { staleAfterMs: number; waitMs: number; signal?: AbortSignal },
): Promise<IdempotencyClaim> {
  const deadline = Date.now() + options.waitMs;
  for (;;) {
    const now = new Date();
    const claimed = await insertRunningKey(db, {
      scope: input.scope,
      key: input.key,
      requestHash: input.requestHash,
      expiresAt: new Date(now.getTime() + RETENTION_MS),
    });
    if (claimed) return { kind: "claimed" };
    const row = await findKey(db, input);
    if (!row) continue;
    const isStale =
      row.expiresAt.getTime() <= now.getTime() ||
      (row.status === "running" && row.createdAt.getTime() <= now.getTime() - options.staleAfterMs);
    if (isStale) {
      await deleteStaleKey(db, input, { now, runningSince: new Date(now.getTime() - options.staleAfterMs) });
      continue;
    }
    if (row.requestHash !== input.requestHash) {
      throw new AppError("idempotency-key-reused", IDEMPOTENCY_KEY_REUSED);
    }
    if (row.status === "done") {
      return { kind: "replay", status: row.responseStatus ?? 200, body: row.responseBody };
    }
    if (Date.now() >= deadline || options.signal?.aborted) {
      // The first call may end any moment: a retry a second later waits for it again.
      throw new AppError("idempotency-in-progress", IDEMPOTENCY_IN_PROGRESS, {
        headers: { "retry-after": String(IDEMPOTENCY_IN_PROGRESS_RETRY_AFTER_SECONDS) },
      });
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}
