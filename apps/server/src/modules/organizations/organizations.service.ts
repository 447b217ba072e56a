import {
  ARCHIVE_LAST_ORGANIZATION,
  type FirstSteps,
  fullPermissions,
  MEMBER_NOT_FOUND,
  type Organization,
  REQUIRE_TWO_FACTOR_OWNER_FIRST,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import { AppError } from "../../errors";
import { type Membership, NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { hasSecondFactor } from "../access/access.store";
import { changedFields, recordAudit } from "../audit/audit.store";
import { toOrganizationEntity } from "../users/users.service";
import { hasAnyMembership, listActiveMemberships } from "../users/users.store";
import {
  archiveOrganizationRow,
  findFirstSteps,
  findOrganization,
  insertOrganizationWithOwner,
  setBillingDetails,
  setMemberOwnership,
  setOrganizationName,
  setRequireTwoFactor,
} from "./organizations.store";

/**
 * Gives a user with no membership an organization of their own, with one project, so their console is
 * usable: a new account on activation, or an invitee who declined the invitation they signed up with.
 * Nothing for a user who already belongs somewhere.
 */
export async function ensureOwnOrganization(tx: Executor, user: { id: string; firstName: string }) {
  if (await hasAnyMembership(tx, user.id)) return;
  await insertOrganizationWithOwner(tx, { name: `${user.firstName}'s Organization`, ownerId: user.id });
}

/** How far the organization has come on Home's first steps; any member may see it. */
export async function getFirstSteps(db: Database, organizationId: string): Promise<FirstSteps> {
  const steps = await findFirstSteps(db, organizationId);
  if (!steps) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  return {
    cardAdded: Boolean(steps.cardAdded),
    recharged: Boolean(steps.recharged),
    apiKeyCreated: Boolean(steps.apiKeyCreated),
    apiCallMade: Boolean(steps.apiCallMade),
  };
}

export async function createOrganization(db: Database, userId: string, name: string): Promise<Organization> {
  const { organization, project } = await db.transaction((tx) =>
    insertOrganizationWithOwner(tx, { name, ownerId: userId }),
  );
  return toOrganizationEntity(organization, { isOwner: true, permissions: {} }, [project]);
}

/** Renaming is the owner's alone (the call declares `owner`; the gate checks it): the settings a member with `organization.general` sees stay read-only. */
export async function renameOrganization(db: Database, membership: Membership, name: string) {
  const { organizationId } = membership;
  await db.transaction(async (tx) => {
    await setOrganizationName(tx, organizationId, name);
    await recordAudit(tx, {
      organizationId,
      action: "organization.renamed",
      target: { type: "organization", id: organizationId },
      before: { name: membership.organizationName },
      after: { name },
    });
  });
}

/**
 * Archiving is a soft delete, and the owner's alone (it takes the organization from every member); the
 * owner must keep at least one other active organization.
 */
export async function archiveOrganization(db: Database, userId: string, membership: Membership) {
  const { organizationId } = membership;
  const active = await listActiveMemberships(db, userId);
  if (active.length <= 1) throw new AppError("last-organization", ARCHIVE_LAST_ORGANIZATION);
  await db.transaction(async (tx) => {
    if (!(await archiveOrganizationRow(tx, organizationId))) return;
    await recordAudit(tx, {
      organizationId,
      action: "organization.archived",
      target: { type: "organization", id: organizationId },
      before: { name: membership.organizationName },
    });
  });
}

/**
 * Hands the organization to another member. The former owner keeps every right but the owner flag,
 * and gets that tree back (the client replaces its own permissions with it).
 */
export async function transferOwnership(
  db: Database,
  userId: string,
  membership: Membership,
  newOwnerUserId: string,
) {
  const { organizationId } = membership;
  if (newOwnerUserId === userId) {
    return { newPermissions: membership.permissions };
  }
  const formerOwnerPermissions = fullPermissions(false, membership.projectIds);
  const { owner: _owner, ...storedTree } = formerOwnerPermissions;
  await db.transaction(async (tx) => {
    // The former owner steps down first: a unique index allows one owner per organization.
    await setMemberOwnership(tx, organizationId, userId, { isOwner: false, permissions: storedTree });
    const promoted = await setMemberOwnership(tx, organizationId, newOwnerUserId, {
      isOwner: true,
      permissions: {},
    });
    if (!promoted) throw new AppError("not-found", MEMBER_NOT_FOUND);
    await recordAudit(tx, {
      organizationId,
      action: "organization.owner-changed",
      target: { type: "member", id: newOwnerUserId },
      before: { ownerUserId: userId },
      after: { ownerUserId: newOwnerUserId },
    });
  });
  return { newPermissions: formerOwnerPermissions };
}

export async function updateBillingDetails(
  db: Database,
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
  const { organizationId, ...details } = input;
  await db.transaction(async (tx) => {
    const current = await findOrganization(tx, organizationId);
    await setBillingDetails(tx, organizationId, details);
    const changes = changedFields(
      {
        billingName: current?.billingName ?? null,
        billingEmail: current?.billingEmail ?? null,
        taxId: current?.taxId ?? null,
        address: current?.address ?? null,
        city: current?.city ?? null,
        state: current?.state ?? null,
        zipCode: current?.zipCode ?? null,
        country: current?.country ?? null,
      },
      details,
    );
    await recordAudit(tx, {
      organizationId,
      action: "organization.billing-updated",
      target: { type: "organization", id: organizationId },
      ...changes,
    });
  });
}

/** The owner alone requires (or stops requiring) two-factor sign-in of every member. */
export async function updateOrganizationSecurity(
  db: Database,
  userId: string,
  input: { organizationId: string; requireTwoFactor: boolean },
) {
  // An owner without a second factor would lock themselves out of their own organization.
  if (input.requireTwoFactor && !(await hasSecondFactor(db, userId))) {
    throw new AppError("forbidden", REQUIRE_TWO_FACTOR_OWNER_FIRST);
  }
  await db.transaction(async (tx) => {
    const current = await findOrganization(tx, input.organizationId);
    if (current?.requireTwoFactor === input.requireTwoFactor) return;
    await setRequireTwoFactor(tx, input.organizationId, input.requireTwoFactor);
    await recordAudit(tx, {
      organizationId: input.organizationId,
      action: "organization.two-factor-requirement-changed",
      target: { type: "organization", id: input.organizationId },
      before: { requireTwoFactor: current?.requireTwoFactor ?? false },
      after: { requireTwoFactor: input.requireTwoFactor },
    });
  });
}
