import { and, asc, eq, inArray, isNull } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { organizationMembers, organizations, projects, users } from "../../db/schema";

export async function findUserById(db: Executor, userId: string) {
  const rows = await db.select().from(users).where(eq(users.id, userId)).limit(1);
  return rows[0];
}

/** The user's active organizations in the order they joined, with their membership. */
export async function listActiveMemberships(db: Executor, userId: string) {
  return db
    .select({
      organization: organizations,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
    })
    .from(organizationMembers)
    .innerJoin(organizations, eq(organizations.id, organizationMembers.organizationId))
    .where(and(eq(organizationMembers.userId, userId), isNull(organizations.archivedAt)))
    .orderBy(asc(organizationMembers.createdAt), asc(organizations.id));
}

export async function listActiveProjects(db: Executor, organizationIds: string[]) {
  if (organizationIds.length === 0) return [];
  return db
    .select()
    .from(projects)
    .where(and(inArray(projects.organizationId, organizationIds), isNull(projects.archivedAt)))
    .orderBy(asc(projects.createdAt), asc(projects.id));
}

export async function findUserByEmail(db: Executor, email: string) {
  const rows = await db.select().from(users).where(eq(users.email, email)).limit(1);
  return rows[0];
}

export async function hasAnyMembership(db: Executor, userId: string): Promise<boolean> {
  const rows = await db
    .select({ userId: organizationMembers.userId })
    .from(organizationMembers)
    .where(eq(organizationMembers.userId, userId))
    .limit(1);
  return rows.length > 0;
}

export async function updateUser(
  db: Executor,
  userId: string,
  changes: Partial<Pick<typeof users.$inferInsert, "firstName" | "lastName" | "passwordHash" | "isActive">>,
) {
  await db
    .update(users)
    .set({ ...changes, updatedAt: new Date() })
    .where(eq(users.id, userId));
}

/** Inserts a user; undefined when the email is taken (a race with another sign-up of the address). */
export async function insertUserUnlessEmailTaken(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db
    .insert(users)
    .values(values)
    .onConflictDoNothing({ target: users.email })
    .returning();
  return row;
}

/**
 * Sets a pending user's fields, conditional on the account still being pending; answers whether it
 * was (of two confirmations racing, one wins).
 */
export async function updatePendingUser(
  db: Executor,
  userId: string,
  values: Partial<Pick<typeof users.$inferInsert, "passwordHash" | "firstName" | "lastName">>,
): Promise<boolean> {
  const claimed = await db
    .update(users)
    .set(values)
    .where(and(eq(users.id, userId), eq(users.isActive, false)))
    .returning({ id: users.id });
  return claimed.length > 0;
}

export async function insertUser(db: Executor, values: typeof users.$inferInsert) {
  const [row] = await db.insert(users).values(values).returning();
  if (!row) throw new Error("user insert returned no row");
  return row;
}
