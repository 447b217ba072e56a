import type { StoredPermissions } from "@prism/contract";
import { and, asc, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { apiKeys, invitations, organizationMembers, organizations, projects, users } from "../../db/schema";

/** Data access of the members module: memberships and invitations. */

export function listMemberRows(db: Executor, organizationId: string) {
  return db
    .select({
      user: users,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
      apiKeyCount: sql<number>`(select count(*)::int from ${apiKeys}
        where ${apiKeys.organizationId} = ${organizationMembers.organizationId}
          and ${apiKeys.createdByUserId} = ${organizationMembers.userId} and ${apiKeys.revokedAt} is null)`,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(asc(organizationMembers.createdAt), asc(users.id));
}

export function listPendingInvitations(db: Executor, organizationId: string, now: Date) {
  return db
    .select({ id: invitations.id, email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), gt(invitations.expiresAt, now)))
    .orderBy(asc(invitations.createdAt));
}

export function listActiveProjects(db: Executor, organizationId: string) {
  return db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), isNull(projects.archivedAt)))
    .orderBy(asc(projects.createdAt), asc(projects.id));
}

/** Which of `emails` already belong to members of the organization. */
export async function memberEmailsAmong(
  db: Executor,
  organizationId: string,
  emails: readonly string[],
): Promise<Set<string>> {
  const rows = await db
    .select({ email: users.email })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(eq(organizationMembers.organizationId, organizationId), inArray(users.email, [...emails])));
  return new Set(rows.map((row) => row.email));
}

/** One invitation per address and organization: inviting again refreshes it. */
export async function upsertInvitation(
  tx: Executor,
  input: {
    organizationId: string;
    email: string;
    permissions: StoredPermissions;
    invitedByUserId: string;
    expiresAt: Date;
  },
): Promise<{ id: string } | undefined> {
  const [invitation] = await tx
    .insert(invitations)
    .values(input)
    .onConflictDoUpdate({
      target: [invitations.organizationId, invitations.email],
      set: {
        permissions: input.permissions,
        invitedByUserId: input.invitedByUserId,
        expiresAt: input.expiresAt,
        createdAt: new Date(),
      },
    })
    .returning({ id: invitations.id });
  return invitation;
}

/** A live invitation of an active organization, with the organization's name. */
export async function findLiveInvitationRow(db: Executor, invitationId: string, now: Date) {
  const rows = await db
    .select({ invitation: invitations, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(
      and(eq(invitations.id, invitationId), gt(invitations.expiresAt, now), isNull(organizations.archivedAt)),
    )
    .limit(1);
  return rows[0];
}

/** Deletes one invitation (of one organization, when given); the deleted row, if there was one. */
export async function deleteInvitation(tx: Executor, invitationId: string, organizationId?: string) {
  const [deleted] = await tx
    .delete(invitations)
    .where(
      organizationId === undefined
        ? eq(invitations.id, invitationId)
        : and(eq(invitations.id, invitationId), eq(invitations.organizationId, organizationId)),
    )
    .returning({ id: invitations.id, email: invitations.email });
  return deleted;
}

/** Adds a member; false when they were one already. */
export async function insertMember(
  tx: Executor,
  input: { organizationId: string; userId: string; permissions: StoredPermissions },
): Promise<boolean> {
  const inserted = await tx
    .insert(organizationMembers)
    .values({ ...input, isOwner: false })
    .onConflictDoNothing()
    .returning({ userId: organizationMembers.userId });
  return inserted.length > 0;
}

export async function findMemberRow(db: Executor, organizationId: string, memberUserId: string) {
  const rows = await db
    .select({ member: organizationMembers, email: users.email })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, memberUserId),
      ),
    )
    .limit(1);
  return rows[0];
}

export async function deleteMember(
  tx: Executor,
  organizationId: string,
  memberUserId: string,
): Promise<boolean> {
  const deleted = await tx
    .delete(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, memberUserId),
      ),
    )
    .returning({ userId: organizationMembers.userId });
  return deleted.length > 0;
}

export async function setMemberPermissions(
  tx: Executor,
  organizationId: string,
  memberUserId: string,
  permissions: StoredPermissions,
): Promise<void> {
  await tx
    .update(organizationMembers)
    .set({ permissions })
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, memberUserId),
      ),
    );
}
