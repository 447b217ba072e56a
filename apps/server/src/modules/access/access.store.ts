import { and, asc, eq, isNotNull, isNull, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "../../db/client";
import { organizationMembers, organizations, passkeys, projects, userTotp } from "../../db/schema";

export async function findActiveMembership(db: Executor, userId: string, organizationId: string) {
  const rows = await db
    .select({
      organization: organizations,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(
      and(
        eq(organizationMembers.userId, userId),
        eq(organizationMembers.organizationId, organizationId),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function listActiveProjectIds(db: Executor, organizationId: string): Promise<string[]> {
  const rows = await db
    .select({ id: projects.id })
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), isNull(projects.archivedAt)))
    .orderBy(asc(projects.createdAt), asc(projects.id));
  return rows.map((row) => row.id);
}

export async function findActiveProject(db: Executor, projectId: string) {
  const rows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.id, projectId), isNull(projects.archivedAt)))
    .limit(1);
  return rows[0];
}

/** Whether the user signs in with a second factor: a confirmed authenticator app or a passkey. */
export async function hasSecondFactor(db: Executor, userId: string): Promise<boolean> {
  const [row] = await db
    .execute<{ enrolled: boolean }>(
      sql`select (exists (select 1 from ${userTotp} where ${and(eq(userTotp.userId, userId), isNotNull(userTotp.confirmedAt))})
      or exists (select 1 from ${passkeys} where ${eq(passkeys.userId, userId)})) as enrolled`,
    )
    .then((result) => rowsOf<{ enrolled: boolean }>(result));
  return row?.enrolled === true;
}
