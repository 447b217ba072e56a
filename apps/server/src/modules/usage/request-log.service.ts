import {
  API_KEY_NOT_FOUND,
  featureByEndpoint,
  INVALID_REQUESTS_CURSOR,
  type ListRequestsRequest,
  type ListRequestsResponse,
  microsToUsd,
  PLAYGROUND_CALLER,
  PLAYGROUND_CALLER_FILTER,
  REQUESTS_PAGE_SIZE,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { costOfRequestMicros, fileUrl } from "../features/feature-requests.store";
import { listKeysOfProjects, listRequestLogPage, type RequestLogKeyset } from "./request-log.store";
import { nextDay } from "./usage.store";

/** PostgreSQL's text of a timestamptz, as `created_at::text` writes it (microseconds at most). */
const TIMESTAMP_TEXT = /^(\d{4})-(\d{2})-(\d{2}) (\d{2}):(\d{2}):(\d{2})(\.\d{1,6})?[+-]\d{2}(:\d{2}){0,2}$/;

/** A real calendar instant (no 30 February, no hour 25), so the database never sees a bad cast. */
function isTimestampText(text: string): boolean {
  const match = TIMESTAMP_TEXT.exec(text);
  if (!match) return false;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as number[];
  const date = new Date(Date.UTC(year ?? 0, (month ?? 0) - 1, day, hour, minute, second));
  return (
    date.getUTCFullYear() === year &&
    date.getUTCMonth() === (month ?? 0) - 1 &&
    date.getUTCDate() === day &&
    date.getUTCHours() === hour &&
    date.getUTCMinutes() === minute &&
    date.getUTCSeconds() === second
  );
}

/** The cursor a client gets: the last row's keyset, opaque (base64url of JSON). */
export function encodeCursor(keyset: RequestLogKeyset): string {
  return Buffer.from(JSON.stringify([keyset.at, keyset.id])).toString("base64url");
}

/** A cursor back to its keyset; anything not made by `encodeCursor` is refused before any query. */
export function decodeCursor(cursor: string): RequestLogKeyset {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8"));
  } catch {
    throw new AppError("invalid-input", INVALID_REQUESTS_CURSOR, { field: "cursor" });
  }
  if (
    !Array.isArray(parsed) ||
    parsed.length !== 2 ||
    typeof parsed[0] !== "string" ||
    typeof parsed[1] !== "string" ||
    !isTimestampText(parsed[0]) ||
    !isUuid(parsed[1])
  ) {
    throw new AppError("invalid-input", INVALID_REQUESTS_CURSOR, { field: "cursor" });
  }
  return { at: parsed[0], id: parsed[1] };
}

/**
 * A page of the Requests view. The route has checked that the organization is the caller's and every
 * project named one of its active projects the caller may use (decision 014); a key filter must name a
 * key of those projects. Nothing of another tenant is read, however the ids are mixed.
 */
export async function listRequests(db: Executor, input: ListRequestsRequest): Promise<ListRequestsResponse> {
  const projectIds = [...new Set(input.projectIds)];
  const keys = await listKeysOfProjects(db, projectIds);
  let apiKeyId: string | null | undefined;
  if (input.apiKeyId === PLAYGROUND_CALLER_FILTER) apiKeyId = null;
  else if (input.apiKeyId !== undefined) {
    if (!keys.some((key) => key.id === input.apiKeyId)) {
      throw new AppError("not-found", API_KEY_NOT_FOUND, { field: "apiKeyId" });
    }
    apiKeyId = input.apiKeyId;
  }
  const after = input.cursor ? decodeCursor(input.cursor) : undefined;
  const rows = await listRequestLogPage(
    db,
    {
      organizationId: input.organizationId,
      projectIds,
      endpoint: input.endpoint,
      apiKeyId,
      status: input.status,
      from: input.from ? new Date(`${input.from}T00:00:00Z`) : undefined,
      to: input.to ? new Date(`${nextDay(input.to)}T00:00:00Z`) : undefined,
    },
    after,
    // One row more than the page says whether another page follows.
    REQUESTS_PAGE_SIZE + 1,
  );
  const page = rows.slice(0, REQUESTS_PAGE_SIZE);
  const last = page.at(-1);
  return {
    requests: page.map((row) => ({
      id: row.id,
      date: row.createdAt.toISOString(),
      projectId: row.projectId,
      projectName: row.projectName,
      endpoint: row.endpoint,
      feature: featureByEndpoint(row.endpoint)?.name ?? row.endpoint,
      apiKeyId: row.apiKeyId,
      caller: row.apiKeyId ? (row.apiKeyName ?? "") : PLAYGROUND_CALLER,
      status: row.status,
      durationMs: row.completedAt ? Math.max(0, row.completedAt.getTime() - row.createdAt.getTime()) : null,
      cost: microsToUsd(costOfRequestMicros(row)),
      resultUrl: row.responseFile && !row.deletedAt ? fileUrl(row.responseFile) : null,
      resultText: row.deletedAt ? null : row.resultText || null,
    })),
    nextCursor: rows.length > REQUESTS_PAGE_SIZE && last ? encodeCursor(last) : null,
    apiKeys: keys.map((key) => ({ id: key.id, name: key.name, projectName: key.projectName })),
  };
}
