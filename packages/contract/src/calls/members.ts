import { z } from "zod";
import { defineCall } from "../define-call";
import { invitationSchema, memberSchema, projectSchema } from "../entities";
import { emptyResponse, idSchema } from "../fields";
import { EMAIL_MAX_LENGTH, INVITE_MAX_EMAILS } from "../limits";
import { permissionsSchema } from "../permissions-schema";

/** Organization members and invitations. */

const emailShape = z.email();

/**
 * Splits the invite box into addresses. The spec separates by spaces while the placeholder says commas,
 * so both are accepted. Returns null when the list is empty or any address is malformed: then nothing
 * is sent.
 */
export function parseEmailList(text: string): string[] | null {
  const emails = text
    .split(/[\s,;]+/)
    .map((email) => email.trim().toLowerCase())
    .filter((email) => email !== "");
  if (emails.length === 0) {
    return null;
  }
  for (const email of emails) {
    if (email.length > EMAIL_MAX_LENGTH || !emailShape.safeParse(email).success) {
      return null;
    }
  }
  return [...new Set(emails)];
}

/** Public: the invitee may be signed out, or signed in as somebody else. */
export const checkInvitationRequest = z.object({
  invitationId: idSchema,
});
export const checkInvitationResponse = z.object({
  valid: z.boolean(),
  /** The invitation is for a different user than the one signed in: the client signs out first. */
  shouldLogOut: z.boolean(),
  /** Null when the invitation is not valid. */
  organizationName: z.string().nullable(),
  /**
   * Ours: the invited address, so the login page of the link can fill it in. Whoever holds the link
   * (mailed to that address) may read it; null when the invitation is not valid.
   */
  email: z.string().nullable(),
});
export const checkInvitationCall = defineCall({
  path: "/v1/users/organization-members/check-invitation",
  auth: "public",
  access: { scope: "public" },
  request: checkInvitationRequest,
  response: checkInvitationResponse,
});

export const listMembersRequest = z.object({
  organizationId: idSchema,
});
export const listMembersResponse = z.object({
  members: z.array(memberSchema),
  /** Pending invitations only. */
  invitations: z.array(invitationSchema),
  /** Every project of the organization, for the per-project permission toggles. */
  projects: z.array(projectSchema),
});
export const listMembersCall = defineCall({
  path: "/v1/users/organization-members/list",
  auth: "session",
  access: { scope: "organization", permission: "member" },
  request: listMembersRequest,
  response: listMembersResponse,
});

/** Ours: the invite's address list is empty, holds a malformed address, or holds too many. */
export const INVITE_EMAILS_INVALID = "Please enter valid email addresses.";

export const inviteMembersRequest = z.object({
  organizationId: idSchema,
  /** Addresses separated by spaces or commas; see `parseEmailList`. */
  emailList: z
    .string()
    .max(INVITE_MAX_EMAILS * (EMAIL_MAX_LENGTH + 1))
    .refine((text) => {
      const emails = parseEmailList(text);
      return emails !== null && emails.length <= INVITE_MAX_EMAILS;
    }, INVITE_EMAILS_INVALID),
  /** The owner flag is ignored here: ownership only moves through change-owner. */
  permissions: permissionsSchema,
});
export const inviteMembersResponse = emptyResponse;
export const inviteMembersCall = defineCall({
  path: "/v1/users/organization-members/invite",
  auth: "session",
  access: { scope: "organization", permission: "members.invite" },
  request: inviteMembersRequest,
  response: inviteMembersResponse,
});

/** Accepts (`confirmed: true`) or declines the invitation for the signed-in user. */
export const confirmInvitationRequest = z.object({
  invitationId: idSchema,
  confirmed: z.boolean(),
});
export const confirmInvitationResponse = z.object({
  organizationId: idSchema,
});
export const confirmInvitationCall = defineCall({
  path: "/v1/users/organization-members/confirm-invitation",
  auth: "session",
  access: { scope: "account" },
  request: confirmInvitationRequest,
  response: confirmInvitationResponse,
});

export const revokeInvitationRequest = z.object({
  invitationId: idSchema,
  organizationId: idSchema,
});
export const revokeInvitationResponse = emptyResponse;
export const revokeInvitationCall = defineCall({
  path: "/v1/users/organization-members/revoke-invitation",
  auth: "session",
  access: { scope: "organization", permission: "members.invite" },
  request: revokeInvitationRequest,
  response: revokeInvitationResponse,
});

/** Removes a member, or the caller themself (Leave); the owner cannot be removed nor leave. */
export const removeMemberRequest = z.object({
  organizationId: idSchema,
  userIdToRemove: idSchema,
});
export const removeMemberResponse = emptyResponse;
export const removeMemberCall = defineCall({
  path: "/v1/users/organization-members/remove",
  auth: "session",
  access: { scope: "organization", permission: "member" },
  request: removeMemberRequest,
  response: removeMemberResponse,
});

export const editPermissionsRequest = z.object({
  memberUserId: idSchema,
  organizationId: idSchema,
  /** The owner flag is ignored here: ownership only moves through change-owner. */
  permissions: permissionsSchema,
});
export const editPermissionsResponse = emptyResponse;
export const editPermissionsCall = defineCall({
  path: "/v1/users/organization-members/edit-permissions",
  auth: "session",
  access: { scope: "organization", permission: "members.edit" },
  request: editPermissionsRequest,
  response: editPermissionsResponse,
});

export const memberCalls = {
  checkInvitation: checkInvitationCall,
  list: listMembersCall,
  invite: inviteMembersCall,
  confirmInvitation: confirmInvitationCall,
  revokeInvitation: revokeInvitationCall,
  remove: removeMemberCall,
  editPermissions: editPermissionsCall,
} as const;

export type CheckInvitationRequest = z.infer<typeof checkInvitationRequest>;
export type CheckInvitationResponse = z.infer<typeof checkInvitationResponse>;
export type ListMembersRequest = z.infer<typeof listMembersRequest>;
export type ListMembersResponse = z.infer<typeof listMembersResponse>;
export type InviteMembersRequest = z.infer<typeof inviteMembersRequest>;
export type ConfirmInvitationRequest = z.infer<typeof confirmInvitationRequest>;
export type ConfirmInvitationResponse = z.infer<typeof confirmInvitationResponse>;
export type RevokeInvitationRequest = z.infer<typeof revokeInvitationRequest>;
export type RemoveMemberRequest = z.infer<typeof removeMemberRequest>;
export type EditPermissionsRequest = z.infer<typeof editPermissionsRequest>;
