import { ARCHIVE_LAST_ORGANIZATION, fullPermissions, type Organization } from "@prism/contract";
import { and, eq, sql } from "drizzle-orm";
import type { Database } from "../../db/client";
import { organizationMembers, organizations } from "../../db/schema";
import { AppError } from "../../errors";
import { requireMembership, requireOwner, requirePermission } from "../access/access.service";
import { toOrganizationEntity } from "../users/users.service";
import { listActiveMemberships } from "../users/users.store";
import { insertOrganizationWithOwner } from "./organizations.store";

export async function createOrganization(db: Database, userId: string, name: string): Promise<Organization> {
  const { organization, project } = await db.transaction((tx) =>
    insertOrganizationWithOwner(tx, { name, ownerId: userId }),
  );
  return toOrganizationEntity(organization, { isOwner: true, permissions: {} }, [project]);
}

/** Renaming is the owner's alone: the settings a member with `organization.general` sees stay read-only. */
export async function renameOrganization(db: Database, userId: string, organizationId: string, name: string) {
  const membership = await requireMembership(db, userId, organizationId);
  requireOwner(membership);
  await db.update(organizations).set({ name }).where(eq(organizations.id, organizationId));
}

/**
 * Archiving is a soft delete, and the owner's alone (it takes the organization from every member); the
 * owner must keep at least one other active organization.
 */
export async function archiveOrganization(db: Database, userId: string, organizationId: string) {
  const membership = await requireMembership(db, userId, organizationId);
  requireOwner(membership);
  const active = await listActiveMemberships(db, userId);
  if (active.length <= 1) throw new AppError("last-organization", ARCHIVE_LAST_ORGANIZATION);
  await db
    .update(organizations)
    .set({ archivedAt: sql`now()` })
    .where(and(eq(organizations.id, organizationId), sql`${organizations.archivedAt} is null`));
}

/**
 * Hands the organization to another member. The former owner keeps every right but the owner flag,
 * and gets that tree back (the client replaces its own permissions with it).
 */
export async function transferOwnership(
  db: Database,
  userId: string,
  organizationId: string,
  newOwnerUserId: string,
) {
  const membership = await requireMembership(db, userId, organizationId);
  requireOwner(membership);
  if (newOwnerUserId === userId) {
    return { newPermissions: membership.permissions };
  }
  const formerOwnerPermissions = fullPermissions(false, membership.projectIds);
  const { owner: _owner, ...storedTree } = formerOwnerPermissions;
  await db.transaction(async (tx) => {
    // The former owner steps down first: a unique index allows one owner per organization.
    await tx
      .update(organizationMembers)
      .set({ isOwner: false, permissions: storedTree })
      .where(
        and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)),
      );
    const promoted = await tx
      .update(organizationMembers)
      .set({ isOwner: true, permissions: {} })
      .where(
        and(
          eq(organizationMembers.organizationId, organizationId),
          eq(organizationMembers.userId, newOwnerUserId),
        ),
      )
      .returning({ userId: organizationMembers.userId });
    if (promoted.length === 0)
      throw new AppError("not-found", "That user is not a member of this organization.");
  });
  return { newPermissions: formerOwnerPermissions };
}

export async function updateBillingDetails(
  db: Database,
  userId: string,
  input: {
    organizationId: string;
    billingName: string;
    billingEmail: string;
    taxId: string | null;
    address: string;
    city: string;
    state: string;
    zipCode: string;
    country: string;
  },
) {
  const membership = await requireMembership(db, userId, input.organizationId);
  requirePermission(membership, "organization.billing");
  const { organizationId, ...details } = input;
  await db.update(organizations).set(details).where(eq(organizations.id, organizationId));
}
