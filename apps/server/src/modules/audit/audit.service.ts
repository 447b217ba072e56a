import {
  AUDIT_PAGE_SIZE,
  type AuditEntry,
  type AuditFilter,
  type ListAuditLogResponse,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid } from "../access/access.service";
import { type AuditCursor, type AuditRow, listAuditEntries } from "./audit.store";

const INVALID_CURSOR = "The page cursor is invalid; reload the first page.";

export function encodeCursor(row: Pick<AuditRow, "cursor" | "id">): string {
  return Buffer.from(JSON.stringify([row.cursor, row.id])).toString("base64url");
}

export function decodeCursor(cursor: string): AuditCursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(cursor, "base64url").toString("utf8")) as unknown[];
    if (typeof createdAt === "string" && !Number.isNaN(Date.parse(createdAt)) && typeof id === "string") {
      if (isUuid(id)) return { createdAt, id };
    }
  } catch {
    // Falls through to the 400 below.
  }
  throw new AppError("invalid-input", INVALID_CURSOR);
}

/** An actor id that is no uuid matches nothing; it must not reach a uuid comparison as a 500. */
export function normalizedFilter(filter: AuditFilter): AuditFilter | undefined {
  if (filter.actorId !== undefined && !isUuid(filter.actorId)) return undefined;
  return filter;
}

export function toAuditEntry(row: AuditRow): AuditEntry {
  const actor: AuditEntry["actor"] = row.actorUserId
    ? { type: "user", id: row.actorUserId, name: row.actorName }
    : row.actorApiKeyId
      ? { type: "api-key", id: row.actorApiKeyId, name: row.actorName }
      : { type: "system", id: null, name: null };
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    actor,
    action: row.action,
    targetType: row.targetType,
    targetId: row.targetId,
    changes: row.changes,
    ip: row.ip,
  };
}

/** A page of the log; the caller's right to read it (the call's declared access) is checked before. */
export async function listAuditLog(
  db: Executor,
  request: AuditFilter & { cursor?: string | undefined },
): Promise<ListAuditLogResponse> {
  const after = request.cursor === undefined ? undefined : decodeCursor(request.cursor);
  const filter = normalizedFilter(request);
  if (!filter) return { entries: [], nextCursor: null };
  // One row more than a page says whether another page follows.
  const rows = await listAuditEntries(db, filter, { after, limit: AUDIT_PAGE_SIZE + 1 });
  const page = rows.slice(0, AUDIT_PAGE_SIZE);
  const last = page.at(-1);
  return {
    entries: page.map(toAuditEntry),
    nextCursor: rows.length > AUDIT_PAGE_SIZE && last ? encodeCursor(last) : null,
  };
}
