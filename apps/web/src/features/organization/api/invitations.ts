import type { CheckInvitationResponse, ConfirmInvitationResponse } from "@prism/contract";
import { api } from "../../../lib/api-client";

/** Public: tells whether the invitation is valid and whether it belongs to somebody else. */
export function checkInvitation(invitationId: string): Promise<CheckInvitationResponse> {
  return api.members.checkInvitation({ invitationId });
}

/** Accepts (`confirmed`) or declines the invitation for the signed-in user. */
export function confirmInvitation(
  invitationId: string,
  confirmed: boolean,
): Promise<ConfirmInvitationResponse> {
  return api.members.confirmInvitation({ invitationId, confirmed });
}
