import {
  EDIT_OWN_PERMISSIONS_REFUSED,
  INVITATION_INVALID,
  INVITATION_TTL_MS,
  INVITATIONS_PER_INVITER_PER_HOUR,
  INVITATIONS_PER_ORGANIZATION_PER_HOUR,
  LEAVE_ORGANIZATION_REFUSED,
  type ListMembersResponse,
  OWNER_PERMISSIONS_FIXED,
  type Permissions,
  parseEmailList,
} from "@prism/contract";
import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import type { AppDependencies } from "../../app-dependencies";
import type { Database } from "../../db/client";
import { invitations, organizationMembers, organizations, projects, users } from "../../db/schema";
import { AppError } from "../../errors";
import { invitationMail } from "../../providers/mail/templates";
import {
  effectivePermissions,
  isUuid,
  requireGrantable,
  requireMembership,
  requirePermission,
  storablePermissions,
} from "../access/access.service";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";

export async function listMembers(
  db: Database,
  userId: string,
  organizationId: string,
): Promise<ListMembersResponse> {
  const membership = await requireMembership(db, userId, organizationId);
  const memberRows = await db
    .select({
      user: users,
      isOwner: organizationMembers.isOwner,
      permissions: organizationMembers.permissions,
    })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(eq(organizationMembers.organizationId, organizationId))
    .orderBy(asc(organizationMembers.createdAt), asc(users.id));
  const pending = await db
    .select({ id: invitations.id, email: invitations.email })
    .from(invitations)
    .where(and(eq(invitations.organizationId, organizationId), gt(invitations.expiresAt, new Date())))
    .orderBy(asc(invitations.createdAt));
  const projectRows = await db
    .select()
    .from(projects)
    .where(and(eq(projects.organizationId, organizationId), isNull(projects.archivedAt)))
    .orderBy(asc(projects.createdAt), asc(projects.id));
  return {
    members: memberRows.map((row) => ({
      id: row.user.id,
      firstName: row.user.firstName,
      lastName: row.user.lastName,
      email: row.user.email,
      permissions: effectivePermissions(row.isOwner, row.permissions, membership.projectIds),
    })),
    invitations: pending,
    projects: projectRows.map((project) => ({ id: project.id, name: project.name, organizationId })),
  };
}

const HOUR_MS = 60 * 60 * 1000;

export const INVITE_RATE_LIMITS = {
  perOrganization: {
    name: "invite:organization",
    limit: INVITATIONS_PER_ORGANIZATION_PER_HOUR,
    windowMs: HOUR_MS,
  },
  perInviter: { name: "invite:inviter", limit: INVITATIONS_PER_INVITER_PER_HOUR, windowMs: HOUR_MS },
} satisfies Record<string, RateLimitRule>;

/**
 * Invites every address (spaces or commas between them) with rights the inviter holds. One invitation
 * per address and organization: inviting again refreshes its permissions and validity. Members are
 * skipped. `linkOrigin` is the configured origin of the console, never the request's Host header.
 */
export async function inviteMembers(
  deps: Pick<AppDependencies, "database" | "mailer">,
  inviter: { userId: string; firstName: string; lastName: string },
  input: { organizationId: string; emailList: string; permissions: Permissions },
  linkOrigin: string,
): Promise<void> {
  const db = deps.database.db;
  const membership = await requireMembership(db, inviter.userId, input.organizationId);
  requirePermission(membership, "members.invite");
  requireGrantable(membership, input.permissions);
  const emails = parseEmailList(input.emailList);
  if (!emails) throw new AppError("invalid-input", "Please enter valid email addresses.");

  const existingMembers = await db
    .select({ email: users.email })
    .from(organizationMembers)
    .innerJoin(users, eq(users.id, organizationMembers.userId))
    .where(and(eq(organizationMembers.organizationId, input.organizationId), inArray(users.email, emails)));
  const memberEmails = new Set(existingMembers.map((row) => row.email));
  const invitees = emails.filter((candidate) => !memberEmails.has(candidate));
  // Each invitation is a mail from our domain to an address of the inviter's choosing: counted per
  // organization and per inviter, before anything is stored or sent.
  if (invitees.length > 0) {
    const now = new Date();
    await consumeRateLimit(
      db,
      INVITE_RATE_LIMITS.perOrganization,
      input.organizationId,
      now,
      invitees.length,
    );
    await consumeRateLimit(db, INVITE_RATE_LIMITS.perInviter, inviter.userId, now, invitees.length);
  }
  const permissions = storablePermissions(input.permissions, membership.projectIds);
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);

  for (const email of invitees) {
    const [invitation] = await db
      .insert(invitations)
      .values({
        organizationId: input.organizationId,
        email,
        permissions,
        invitedByUserId: inviter.userId,
        expiresAt,
      })
      .onConflictDoUpdate({
        target: [invitations.organizationId, invitations.email],
        set: { permissions, invitedByUserId: inviter.userId, expiresAt, createdAt: new Date() },
      })
      .returning({ id: invitations.id });
    if (!invitation) continue;
    const link = `${linkOrigin}/organization/members?invitation=${invitation.id}`;
    const inviterName = `${inviter.firstName} ${inviter.lastName}`.trim();
    await deps.mailer.send(invitationMail(email, inviterName, membership.organizationName, link));
  }
}

async function findLiveInvitation(db: Database, invitationId: string) {
  if (!isUuid(invitationId)) return undefined;
  const rows = await db
    .select({ invitation: invitations, organizationName: organizations.name })
    .from(invitations)
    .innerJoin(organizations, eq(organizations.id, invitations.organizationId))
    .where(
      and(
        eq(invitations.id, invitationId),
        gt(invitations.expiresAt, new Date()),
        isNull(organizations.archivedAt),
      ),
    )
    .limit(1);
  return rows[0];
}

/**
 * Public: anyone holding the link may see the organization's name and the address it was mailed to
 * (the login page fills it in); shouldLogOut when signed in as another email.
 */
export async function checkInvitation(db: Database, invitationId: string, signedInEmail: string | undefined) {
  const found = await findLiveInvitation(db, invitationId);
  if (!found) return { valid: false, shouldLogOut: false, organizationName: null, email: null };
  return {
    valid: true,
    shouldLogOut: signedInEmail !== undefined && signedInEmail !== found.invitation.email,
    organizationName: found.organizationName,
    email: found.invitation.email,
  };
}

/** Accepts or declines; either way the invitation is used up. Only its addressee may answer it. */
export async function answerInvitation(
  db: Database,
  user: { userId: string; email: string },
  invitationId: string,
  accept: boolean,
): Promise<{ organizationId: string }> {
  const found = await findLiveInvitation(db, invitationId);
  if (!found || found.invitation.email !== user.email) throw new AppError("not-found", INVITATION_INVALID);
  const { invitation } = found;
  await db.transaction(async (tx) => {
    const used = await tx
      .delete(invitations)
      .where(eq(invitations.id, invitation.id))
      .returning({ id: invitations.id });
    // A parallel answer got there first.
    if (used.length === 0) throw new AppError("not-found", INVITATION_INVALID);
    if (!accept) return;
    await tx
      .insert(organizationMembers)
      .values({
        organizationId: invitation.organizationId,
        userId: user.userId,
        isOwner: false,
        permissions: invitation.permissions,
      })
      .onConflictDoNothing();
  });
  return { organizationId: invitation.organizationId };
}

export async function revokeInvitation(
  db: Database,
  userId: string,
  organizationId: string,
  invitationId: string,
) {
  const membership = await requireMembership(db, userId, organizationId);
  requirePermission(membership, "members.invite");
  if (!isUuid(invitationId)) throw new AppError("not-found", INVITATION_INVALID);
  const revoked = await db
    .delete(invitations)
    .where(and(eq(invitations.id, invitationId), eq(invitations.organizationId, organizationId)))
    .returning({ id: invitations.id });
  if (revoked.length === 0) throw new AppError("not-found", INVITATION_INVALID);
}

async function findMember(db: Database, organizationId: string, memberUserId: string) {
  if (!isUuid(memberUserId)) return undefined;
  const rows = await db
    .select()
    .from(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, memberUserId),
      ),
    )
    .limit(1);
  return rows[0];
}

/** Anyone may leave (except the owner); removing somebody else needs members.delete; the owner stays. */
export async function removeMember(
  db: Database,
  userId: string,
  organizationId: string,
  userIdToRemove: string,
) {
  const membership = await requireMembership(db, userId, organizationId);
  const leaving = userIdToRemove === userId;
  if (leaving && membership.isOwner) throw new AppError("owner-cannot-leave", LEAVE_ORGANIZATION_REFUSED);
  if (!leaving) requirePermission(membership, "members.delete");
  const target = await findMember(db, organizationId, userIdToRemove);
  if (!target) throw new AppError("not-found", "That user is not a member of this organization.");
  if (target.isOwner)
    throw new AppError("owner-immutable", "The owner cannot be removed from the organization.");
  await db
    .delete(organizationMembers)
    .where(
      and(
        eq(organizationMembers.organizationId, organizationId),
        eq(organizationMembers.userId, userIdToRemove),
      ),
    );
}

/**
 * Replaces a member's permissions. Never the owner's, and never one's own: a member allowed to edit
 * others must not be able to grant themselves more; nor can they give another a right they lack.
 */
export async function editMemberPermissions(
  db: Database,
  userId: string,
  input: { organizationId: string; memberUserId: string; permissions: Permissions },
) {
  const membership = await requireMembership(db, userId, input.organizationId);
  requirePermission(membership, "members.edit");
  const target = await findMember(db, input.organizationId, input.memberUserId);
  if (!target) throw new AppError("not-found", "That user is not a member of this organization.");
  if (target.isOwner) throw new AppError("owner-immutable", OWNER_PERMISSIONS_FIXED);
  if (input.memberUserId === userId) throw new AppError("forbidden", EDIT_OWN_PERMISSIONS_REFUSED);
  requireGrantable(
    membership,
    input.permissions,
    effectivePermissions(false, target.permissions, membership.projectIds),
  );
  await db
    .update(organizationMembers)
    .set({ permissions: storablePermissions(input.permissions, membership.projectIds) })
    .where(
      and(
        eq(organizationMembers.organizationId, input.organizationId),
        eq(organizationMembers.userId, input.memberUserId),
      ),
    );
}
