import type { AuditAction, AuditFilter } from "@prism/contract";
import { and, desc, eq, gte, lt, or, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { apiKeys, auditLog, users } from "../../db/schema";
import { currentRequestActor, currentRequestIp, type RequestActor } from "../../http/request-context";

/**
 * Who made a change. Left out of an entry, it is the current request's authenticated caller (the
 * session's user or the API key), or `system` outside a request (webhooks of the payment provider,
 * timers, the job queue).
 */
export type AuditActor = RequestActor | { kind: "system" };

export interface AuditRecord {
  organizationId: string;
  action: AuditAction;
  target: { type: string; id?: string | null };
  /** The changed fields as they were and as they are (see {@link changedFields}); never secrets. */
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
  /** Defaults to the current request's caller, else the system. */
  actor?: AuditActor;
  /** Defaults to the current request's client address. */
  ip?: string | null;
}

/**
 * Field names that never enter the log, at any depth: key contents and hashes, passwords, TOTP
 * secrets, card numbers, tokens. A last line of defence; callers pass only the fields a reader needs.
 */
const SECRET_FIELDS = new Set([
  "content",
  "key",
  "keyHash",
  "secret",
  "password",
  "passwordHash",
  "totpSecret",
  "token",
  "tokenHash",
  "cardNumber",
  "number",
  "cvc",
  "recoveryCodes",
]);

function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === "bigint") return value.toString();
  if (typeof value !== "object" || value === null) return value;
  const clean: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) {
    if (!SECRET_FIELDS.has(name)) clean[name] = withoutSecrets(field);
  }
  return clean;
}

/**
 * Appends one entry. Call it with the transaction that makes the change, so the change and its entry
 * commit together or not at all:
 *
 * ```ts
 * await db.transaction(async (tx) => {
 *   await tx.update(webhookEndpoints).set({ url }).where(...);
 *   await recordAudit(tx, {
 *     organizationId,
 *     action: "webhook-endpoint.updated",
 *     target: { type: "webhook-endpoint", id },
 *     ...changedFields({ url: before.url }, { url }),
 *   });
 * });
 * ```
 *
 * A new action is added to the contract's AUDIT_ACTION_LABELS (the page's filter and labels come from
 * there). There is no update or delete counterpart, and the database refuses both.
 */
export async function recordAudit(tx: Executor, entry: AuditRecord): Promise<void> {
  const actor: AuditActor = entry.actor ?? currentRequestActor() ?? { kind: "system" };
  const before = entry.before === undefined ? undefined : withoutSecrets(entry.before);
  const after = entry.after === undefined ? undefined : withoutSecrets(entry.after);
  await tx.insert(auditLog).values({
    organizationId: entry.organizationId,
    actorUserId: actor.kind === "user" ? actor.userId : null,
    actorApiKeyId: actor.kind === "api-key" ? actor.apiKeyId : null,
    actorName: actorNameNow(actor),
    action: entry.action,
    targetType: entry.target.type,
    targetId: entry.target.id ?? null,
    changes:
      before === undefined && after === undefined
        ? null
        : {
            ...(before === undefined ? {} : { before: before as Record<string, unknown> }),
            ...(after === undefined ? {} : { after: after as Record<string, unknown> }),
          },
    ip: entry.ip === undefined ? (currentRequestIp() ?? null) : entry.ip,
    // The moment of writing, not the transaction's start (now()), and after the organization's latest
    // entry: the entries of one change keep their order also where the clock ticks in milliseconds
    // (PGlite's does, and one change writes several entries within one). The index on
    // (organization_id, created_at desc) answers the max from its first row.
    createdAt: sql`greatest(clock_timestamp(), (select max(${auditLog.createdAt}) + interval '1 microsecond' from ${auditLog} where ${auditLog.organizationId} = ${entry.organizationId}))`,
  });
}

/** The actor's name as it is now, read in the entry's own insert (no round trip). */
function actorNameNow(actor: AuditActor): SQL | null {
  if (actor.kind === "user") {
    return sql`(select trim(${users.firstName} || ' ' || ${users.lastName}) from ${users} where ${users.id} = ${actor.userId})`;
  }
  if (actor.kind === "api-key") {
    return sql`(select ${apiKeys.name} from ${apiKeys} where ${apiKeys.id} = ${actor.apiKeyId})`;
  }
  return null;
}

/**
 * The fields of `after` whose value differs from `before`, as `{ before, after }` holding only those
 * (compared as JSON, so trees and dates compare by value).
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): { before: Record<string, unknown>; after: Record<string, unknown> } {
  const changedBefore: Record<string, unknown> = {};
  const changedAfter: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(after)) {
    const previous = before[name];
    if (JSON.stringify(withoutSecrets(previous)) !== JSON.stringify(withoutSecrets(value))) {
      changedBefore[name] = previous ?? null;
      changedAfter[name] = value ?? null;
    }
  }
  return { before: changedBefore, after: changedAfter };
}

/** A page position: the (created_at, id) of the last entry shown, newest first. */
export interface AuditCursor {
  createdAt: string;
  id: string;
}

export interface AuditRow {
  id: string;
  createdAt: Date;
  /** created_at in full microsecond precision as text, for the next page's cursor. */
  cursor: string;
  actorUserId: string | null;
  actorApiKeyId: string | null;
  /** The actor's name when the entry was written. */
  actorName: string | null;
  action: string;
  targetType: string;
  targetId: string | null;
  changes: { before?: Record<string, unknown>; after?: Record<string, unknown> } | null;
  ip: string | null;
}

const DAY_MS = 24 * 60 * 60 * 1000;

function filterConditions(filter: AuditFilter): SQL[] {
  const conditions: SQL[] = [eq(auditLog.organizationId, filter.organizationId)];
  if (filter.action) conditions.push(eq(auditLog.action, filter.action));
  if (filter.actorId) {
    const actor = or(eq(auditLog.actorUserId, filter.actorId), eq(auditLog.actorApiKeyId, filter.actorId));
    if (actor) conditions.push(actor);
  }
  if (filter.from) conditions.push(gte(auditLog.createdAt, new Date(`${filter.from}T00:00:00.000Z`)));
  if (filter.to) {
    conditions.push(lt(auditLog.createdAt, new Date(Date.parse(`${filter.to}T00:00:00.000Z`) + DAY_MS)));
  }
  return conditions;
}

/**
 * One page of an organization's entries matching the filter, newest first, after `cursor`: a keyset
 * read on (organization_id, created_at desc, id desc), so a deep page costs what the first does. The
 * cursor keeps created_at as PostgreSQL's own text (microseconds, which a JavaScript Date would cut).
 */
export async function listAuditEntries(
  db: Executor,
  filter: AuditFilter,
  options: { after?: AuditCursor | undefined; limit: number },
): Promise<AuditRow[]> {
  const conditions = filterConditions(filter);
  if (options.after) {
    conditions.push(
      sql`(${auditLog.createdAt}, ${auditLog.id}) < (${options.after.createdAt}::timestamptz, ${options.after.id}::uuid)`,
    );
  }
  return db
    .select({
      id: auditLog.id,
      createdAt: auditLog.createdAt,
      cursor: sql<string>`to_char(${auditLog.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      actorUserId: auditLog.actorUserId,
      actorApiKeyId: auditLog.actorApiKeyId,
      actorName: auditLog.actorName,
      action: auditLog.action,
      targetType: auditLog.targetType,
      targetId: auditLog.targetId,
      changes: auditLog.changes,
      ip: auditLog.ip,
    })
    .from(auditLog)
    .where(and(...conditions))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(options.limit);
}
