import { API_KEY_NO_NAME, type ApiKey, type CreatedApiKey } from "@prism/contract";
import { and, asc, eq, isNull, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { apiKeys, organizations, projects, users } from "../../db/schema";
import { AppError } from "../../errors";
import { isUuid, requirePermission, requireProjectAccess } from "../access/access.service";
import { generateApiKey, hashApiKey, isWellFormedApiKey } from "./api-key-format";

const KEY_NOT_FOUND = "API key not found.";
/** `last used` is written at most this often per key, so busy keys do not turn every call into a write. */
const LAST_USED_RESOLUTION_MS = 60_000;

function displayName(name: string): string {
  return name.trim() === "" ? API_KEY_NO_NAME : name.trim();
}

type KeyRow = typeof apiKeys.$inferSelect;

function toApiKey(row: KeyRow, creator: { firstName: string; lastName: string } | null): ApiKey {
  return {
    id: row.id,
    name: row.name,
    lastFourDigits: row.lastFour,
    lastUsed: row.lastUsedAt?.toISOString() ?? null,
    creationDate: row.createdAt.toISOString(),
    creationUserFirstName: creator?.firstName ?? null,
    creationUserLastName: creator?.lastName ?? null,
  };
}

export async function listApiKeys(db: Database, userId: string, projectId: string): Promise<ApiKey[]> {
  await requireProjectAccess(db, userId, projectId);
  const rows = await db
    .select({ key: apiKeys, firstName: users.firstName, lastName: users.lastName })
    .from(apiKeys)
    .leftJoin(users, eq(users.id, apiKeys.createdByUserId))
    .where(and(eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .orderBy(asc(apiKeys.createdAt), asc(apiKeys.id));
  return rows.map((row) =>
    toApiKey(
      row.key,
      row.firstName === null ? null : { firstName: row.firstName, lastName: row.lastName ?? "" },
    ),
  );
}

export async function createApiKey(
  db: Database,
  user: { userId: string; firstName: string; lastName: string },
  projectId: string,
  name: string,
): Promise<CreatedApiKey> {
  const { project, membership } = await requireProjectAccess(db, user.userId, projectId);
  requirePermission(membership, "apiKeys.create");
  const content = generateApiKey();
  const [row] = await db
    .insert(apiKeys)
    .values({
      projectId,
      organizationId: project.organizationId,
      name: displayName(name),
      keyHash: hashApiKey(content),
      lastFour: content.slice(-4),
      createdByUserId: user.userId,
    })
    .returning();
  if (!row) throw new Error("api key insert returned no row");
  return { ...toApiKey(row, user), content };
}

async function requireKeyOfProject(db: Database, projectId: string, apiKeyId: string) {
  if (!isUuid(apiKeyId)) throw new AppError("not-found", KEY_NOT_FOUND);
  const rows = await db
    .select({ id: apiKeys.id })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, apiKeyId), eq(apiKeys.projectId, projectId), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (rows.length === 0) throw new AppError("not-found", KEY_NOT_FOUND);
}

export async function renameApiKey(
  db: Database,
  userId: string,
  projectId: string,
  apiKeyId: string,
  name: string,
) {
  const { membership } = await requireProjectAccess(db, userId, projectId);
  requirePermission(membership, "apiKeys.create");
  await requireKeyOfProject(db, projectId, apiKeyId);
  await db
    .update(apiKeys)
    .set({ name: displayName(name) })
    .where(eq(apiKeys.id, apiKeyId));
}

export async function revokeApiKey(db: Database, userId: string, projectId: string, apiKeyId: string) {
  const { membership } = await requireProjectAccess(db, userId, projectId);
  requirePermission(membership, "apiKeys.delete");
  await requireKeyOfProject(db, projectId, apiKeyId);
  await db.update(apiKeys).set({ revokedAt: sql`now()` }).where(eq(apiKeys.id, apiKeyId));
}

export interface ApiKeyPrincipal {
  apiKeyId: string;
  projectId: string;
  organizationId: string;
}

/**
 * Authenticates a Bearer key for the public API: well-formed, known, not revoked, and its project and
 * organization still active. Refreshes `last used` at most once a minute.
 */
export async function authenticateApiKey(
  db: Database,
  key: string,
  now = new Date(),
): Promise<ApiKeyPrincipal | undefined> {
  if (!isWellFormedApiKey(key)) return undefined;
  const rows = await db
    .select({
      id: apiKeys.id,
      projectId: apiKeys.projectId,
      organizationId: apiKeys.organizationId,
      lastUsedAt: apiKeys.lastUsedAt,
    })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .innerJoin(organizations, eq(organizations.id, apiKeys.organizationId))
    .where(
      and(
        eq(apiKeys.keyHash, hashApiKey(key)),
        isNull(apiKeys.revokedAt),
        isNull(projects.archivedAt),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  const row = rows[0];
  if (!row) return undefined;
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, row.id),
          sql`(${apiKeys.lastUsedAt} is null or ${apiKeys.lastUsedAt} <= ${new Date(now.getTime() - LAST_USED_RESOLUTION_MS)})`,
        ),
      );
  }
  return { apiKeyId: row.id, projectId: row.projectId, organizationId: row.organizationId };
}
