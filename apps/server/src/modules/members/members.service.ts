import {
  EDIT_OWN_PERMISSIONS_REFUSED,
  INVITATION_INVALID,
  INVITATION_TTL_MS,
  INVITATIONS_PER_INVITER_PER_HOUR,
  INVITATIONS_PER_ORGANIZATION_PER_HOUR,
  INVITE_EMAILS_INVALID,
  LEAVE_ORGANIZATION_REFUSED,
  type ListMembersResponse,
  MEMBER_NOT_FOUND,
  OWNER_PERMISSIONS_FIXED,
  type Permissions,
  parseEmailList,
} from "@prism/contract";
import type { AppDependencies } from "../../app-dependencies";
import type { Database, Executor } from "../../db/client";
import { AppError } from "../../errors";
import { invitationMail } from "../../providers/mail/templates";
import {
  effectivePermissions,
  isUuid,
  type Membership,
  requireGrantable,
  requirePermission,
  storablePermissions,
} from "../access/access.service";
import { revokeKeysCreatedBy } from "../api-keys/api-keys.store";
import { recordAudit } from "../audit/audit.store";
import { ensureOwnOrganization } from "../organizations/organizations.service";
import { consumeRateLimit, type RateLimitRule } from "../rate-limit/rate-limit.service";
import { findUserById } from "../users/users.store";
import {
  deleteInvitation,
  deleteMember,
  findLiveInvitationRow,
  findMemberRow,
  insertMember,
  listActiveProjects,
  listMemberRows,
  listPendingInvitations,
  memberEmailsAmong,
  setMemberPermissions,
  upsertInvitation,
} from "./members.store";

/** The organization's members, invitations and projects; `membership` is the caller's (any member may list). */
export async function listMembers(db: Database, membership: Membership): Promise<ListMembersResponse> {
  const { organizationId } = membership;
  const memberRows = await listMemberRows(db, organizationId);
  const pending = await listPendingInvitations(db, organizationId, new Date());
  const projectRows = await listActiveProjects(db, organizationId);
  return {
    members: memberRows.map((row) => ({
      id: row.user.id,
      firstName: row.user.firstName,
      lastName: row.user.lastName,
      email: row.user.email,
      permissions: effectivePermissions(row.isOwner, row.permissions, membership.projectIds),
      apiKeyCount: Number(row.apiKeyCount),
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
  /** The inviter's, holding `members.invite` (the call's declared access). */
  membership: Membership,
  input: { organizationId: string; emailList: string; permissions: Permissions },
  linkOrigin: string,
): Promise<void> {
  const db = deps.database.db;
  requireGrantable(membership, input.permissions);
  const emails = parseEmailList(input.emailList);
  if (!emails) throw new AppError("invalid-input", INVITE_EMAILS_INVALID);

  const memberEmails = await memberEmailsAmong(db, input.organizationId, emails);
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
    const invitation = await db.transaction(async (tx) => {
      const stored = await upsertInvitation(tx, {
        organizationId: input.organizationId,
        email,
        permissions,
        invitedByUserId: inviter.userId,
        expiresAt,
      });
      if (stored) {
        await recordAudit(tx, {
          organizationId: input.organizationId,
          action: "member.invited",
          target: { type: "invitation", id: stored.id },
          after: { email, permissions },
        });
      }
      return stored;
    });
    if (!invitation) continue;
    const link = `${linkOrigin}/organization/members?invitation=${invitation.id}`;
    const inviterName = `${inviter.firstName} ${inviter.lastName}`.trim();
    await deps.mailer.send(invitationMail(email, inviterName, membership.organizationName, link));
  }
}

async function findLiveInvitation(db: Database, invitationId: string) {
  if (!isUuid(invitationId)) return undefined;
  return findLiveInvitationRow(db, invitationId, new Date());
}

/**
 * Whether the invitation (an id as the browser's cookie holds it, maybe not an id at all) is live and
 * addressed to this email: the account being activated is about to be asked to join it.
 */
export async function isLiveInvitationFor(
  db: Executor,
  invitationId: string | undefined,
  email: string,
): Promise<boolean> {
  if (!invitationId || !isUuid(invitationId)) return false;
  const found = await findLiveInvitationRow(db, invitationId, new Date());
  return found !== undefined && found.invitation.email === email.toLowerCase();
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
    const used = await deleteInvitation(tx, invitation.id);
    // A parallel answer got there first.
    if (!used) throw new AppError("not-found", INVITATION_INVALID);
    if (!accept) {
      await recordAudit(tx, {
        organizationId: invitation.organizationId,
        action: "member.invitation-declined",
        target: { type: "invitation", id: invitation.id },
        before: { email: invitation.email },
      });
      // A newcomer who signed up from this invitation has no organization yet: they get their own now.
      const decliner = await findUserById(tx, user.userId);
      if (decliner) await ensureOwnOrganization(tx, decliner);
      return;
    }
    const joined = await insertMember(tx, {
      organizationId: invitation.organizationId,
      userId: user.userId,
      permissions: invitation.permissions,
    });
    if (joined) {
      await recordAudit(tx, {
        organizationId: invitation.organizationId,
        action: "member.joined",
        target: { type: "member", id: user.userId },
        after: { email: user.email, permissions: invitation.permissions },
      });
    }
  });
  return { organizationId: invitation.organizationId };
}

/** `organizationId` is one whose `members.invite` right the caller holds (the call's declared access). */
export async function revokeInvitation(db: Database, organizationId: string, invitationId: string) {
  if (!isUuid(invitationId)) throw new AppError("not-found", INVITATION_INVALID);
  await db.transaction(async (tx) => {
    const revoked = await deleteInvitation(tx, invitationId, organizationId);
    if (!revoked) throw new AppError("not-found", INVITATION_INVALID);
    await recordAudit(tx, {
      organizationId,
      action: "member.invitation-revoked",
      target: { type: "invitation", id: invitationId },
      before: { email: revoked.email },
    });
  });
}

async function findMember(db: Database, organizationId: string, memberUserId: string) {
  if (!isUuid(memberUserId)) return undefined;
  const row = await findMemberRow(db, organizationId, memberUserId);
  return row ? { ...row.member, email: row.email } : undefined;
}

/** Anyone may leave (except the owner); removing somebody else needs members.delete; the owner stays. */
export async function removeMember(
  db: Database,
  userId: string,
  membership: Membership,
  userIdToRemove: string,
) {
  const { organizationId } = membership;
  const leaving = userIdToRemove === userId;
  if (leaving && membership.isOwner) throw new AppError("owner-cannot-leave", LEAVE_ORGANIZATION_REFUSED);
  if (!leaving) requirePermission(membership, "members.delete");
  const target = await findMember(db, organizationId, userIdToRemove);
  if (!target) throw new AppError("not-found", MEMBER_NOT_FOUND);
  if (target.isOwner)
    throw new AppError("owner-immutable", "The owner cannot be removed from the organization.");
  await db.transaction(async (tx) => {
    // A parallel removal got there first: nothing changed, so nothing is recorded.
    if (!(await deleteMember(tx, organizationId, userIdToRemove))) return;
    await recordAudit(tx, {
      organizationId,
      action: leaving ? "member.left" : "member.removed",
      target: { type: "member", id: userIdToRemove },
      before: { email: target.email, permissions: target.permissions },
    });
    // Keys outlive no membership: a removed member's key would otherwise go on spending the balance
    // and reading the project's files. Revoked in this transaction, so the removal and the
    // revocation commit together.
    for (const key of await revokeKeysCreatedBy(tx, organizationId, userIdToRemove)) {
      await recordAudit(tx, {
        organizationId,
        action: "api-key.revoked-with-member",
        target: { type: "api-key", id: key.id },
        before: { name: key.name, lastFour: key.lastFour, projectId: key.projectId, createdBy: target.email },
      });
    }
  });
}

/**
 * Replaces a member's permissions. Never the owner's, and never one's own: a member allowed to edit
 * others must not be able to grant themselves more; nor can they give another a right they lack.
 */
export async function editMemberPermissions(
  db: Database,
  userId: string,
  /** The caller's, holding `members.edit` (the call's declared access). */
  membership: Membership,
  input: { organizationId: string; memberUserId: string; permissions: Permissions },
) {
  const target = await findMember(db, input.organizationId, input.memberUserId);
  if (!target) throw new AppError("not-found", MEMBER_NOT_FOUND);
  if (target.isOwner) throw new AppError("owner-immutable", OWNER_PERMISSIONS_FIXED);
  if (input.memberUserId === userId) throw new AppError("forbidden", EDIT_OWN_PERMISSIONS_REFUSED);
  requireGrantable(
    membership,
    input.permissions,
    effectivePermissions(false, target.permissions, membership.projectIds),
  );
  const before = storablePermissions(
    effectivePermissions(false, target.permissions, membership.projectIds),
    membership.projectIds,
  );
  const after = storablePermissions(input.permissions, membership.projectIds);
  await db.transaction(async (tx) => {
    await setMemberPermissions(tx, input.organizationId, input.memberUserId, after);
    await recordAudit(tx, {
      organizationId: input.organizationId,
      action: "member.permissions-changed",
      target: { type: "member", id: input.memberUserId },
      before: { email: target.email, permissions: before },
      after: { email: target.email, permissions: after },
    });
  });
}
