import type { RevokeInvitationRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { membersQueryKey } from "./get-members";

export function revokeInvitation(input: RevokeInvitationRequest) {
  return api.members.revokeInvitation(input);
}

export function useRevokeInvitation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeInvitation,
    onSuccess: (_answer, input) =>
      queryClient.invalidateQueries({ queryKey: membersQueryKey(input.organizationId) }),
  });
}
