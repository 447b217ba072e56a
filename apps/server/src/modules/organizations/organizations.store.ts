import type { StoredPermissions } from "@prism/contract";
import { and, eq, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import {
  apiKeys,
  featureRequests,
  organizationMembers,
  organizations,
  paymentMethods,
  payments,
  projects,
} from "../../db/schema";
import { recordAudit } from "../audit/audit.store";

export const DEFAULT_PROJECT_NAME = "Default Project";

/**
 * Creates an organization owned by `ownerId` with its first project, and its audit entry. Call inside
 * a transaction: the rows exist together or not at all.
 */
export async function insertOrganizationWithOwner(
  tx: Executor,
  input: { name: string; ownerId: string; projectName?: string },
) {
  const [organization] = await tx.insert(organizations).values({ name: input.name }).returning();
  if (!organization) throw new Error("organization insert returned no row");
  await tx
    .insert(organizationMembers)
    .values({ organizationId: organization.id, userId: input.ownerId, isOwner: true, permissions: {} });
  const [project] = await tx
    .insert(projects)
    .values({ organizationId: organization.id, name: input.projectName ?? DEFAULT_PROJECT_NAME })
    .returning();
  if (!project) throw new Error("project insert returned no row");
  // Made at sign-up too, where no session exists yet: the owner is named explicitly.
  await recordAudit(tx, {
    organizationId: organization.id,
    action: "organization.created",
    target: { type: "organization", id: organization.id },
    after: { name: organization.name, defaultProject: project.name },
    actor: { kind: "user", userId: input.ownerId },
  });
  return { organization, project };
}

export async function findOrganization(db: Executor, organizationId: string) {
  const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
  return organization;
}

export async function setOrganizationName(tx: Executor, organizationId: string, name: string): Promise<void> {
  await tx.update(organizations).set({ name }).where(eq(organizations.id, organizationId));
}

/** Archives an active organization; false when it was archived already (a parallel call). */
export async function archiveOrganizationRow(tx: Executor, organizationId: string): Promise<boolean> {
  const archived = await tx
    .update(organizations)
    .set({ archivedAt: sql`now()` })
    .where(and(eq(organizations.id, organizationId), isNull(organizations.archivedAt)))
    .returning({ id: organizations.id });
  return archived.length > 0;
}

export async function setMemberOwnership(
  tx: Executor,
  organizationId: string,
  userId: string,
  values: { isOwner: boolean; permissions: StoredPermissions },
): Promise<boolean> {
  const updated = await tx
    .update(organizationMembers)
    .set(values)
    .where(
      and(eq(organizationMembers.organizationId, organizationId), eq(organizationMembers.userId, userId)),
    )
    .returning({ userId: organizationMembers.userId });
  return updated.length > 0;
}

export type BillingDetailsValues = Pick<
  typeof organizations.$inferInsert,
  "billingName" | "billingEmail" | "taxId" | "address" | "city" | "state" | "zipCode" | "country"
>;

export async function setBillingDetails(
  tx: Executor,
  organizationId: string,
  details: BillingDetailsValues,
): Promise<void> {
  await tx.update(organizations).set(details).where(eq(organizations.id, organizationId));
}

export async function setRequireTwoFactor(
  tx: Executor,
  organizationId: string,
  requireTwoFactor: boolean,
): Promise<void> {
  await tx.update(organizations).set({ requireTwoFactor }).where(eq(organizations.id, organizationId));
}

/**
 * The first-steps checklist's facts in one statement: a saved card, a credited payment, a key ever made
 * in any of the organization's projects, and a call that succeeded with a key.
 */
export async function findFirstSteps(db: Executor, organizationId: string) {
  const [row] = await db
    .select({
      cardAdded: sql<boolean>`exists (select 1 from ${paymentMethods} where ${paymentMethods.organizationId} = ${organizationId})`,
      recharged: sql<boolean>`exists (select 1 from ${payments} where ${payments.organizationId} = ${organizationId} and ${payments.status} = 'succeeded')`,
      apiKeyCreated: sql<boolean>`exists (select 1 from ${apiKeys} where ${apiKeys.organizationId} = ${organizationId})`,
      apiCallMade: sql<boolean>`exists (select 1 from ${featureRequests} where ${featureRequests.organizationId} = ${organizationId} and ${featureRequests.apiKeyId} is not null and ${featureRequests.status} = 'done')`,
    })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return row;
}
