import type { InviteMembersRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { membersQueryKey } from "./get-members";

export function inviteMembers(input: InviteMembersRequest) {
  return api.members.invite(input);
}

/** Sends the invitations; the pending list is read again so they appear under Pending Invitations. */
export function useInviteMembers() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: inviteMembers,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: membersQueryKey(input.organizationId) }),
  });
}
