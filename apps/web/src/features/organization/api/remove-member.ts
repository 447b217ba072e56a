import type { RemoveMemberRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { membersQueryKey } from "./get-members";

export function removeMember(input: RemoveMemberRequest) {
  return api.members.remove(input);
}

/**
 * Removes a member, or the signed-in user themself (Leave). Leaving drops the organization from the
 * cached user, which makes the selection fall back to the first remaining organization and its first
 * project.
 */
export function useRemoveMember() {
  const queryClient = useQueryClient();
  const { userInfo, updateUserInfo } = useSession();
  const userId = userInfo?.id;
  return useMutation({
    mutationFn: removeMember,
    onSuccess: async (_answer, input) => {
      if (input.userIdToRemove === userId) {
        queryClient.removeQueries({ queryKey: membersQueryKey(input.organizationId) });
        updateUserInfo((current) => ({
          ...current,
          organizations: current.organizations.filter(
            (organization) => organization.id !== input.organizationId,
          ),
        }));
        return;
      }
      await queryClient.invalidateQueries({ queryKey: membersQueryKey(input.organizationId) });
    },
  });
}
