import type { EditPermissionsRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { membersQueryKey } from "./get-members";

export function editPermissions(input: EditPermissionsRequest) {
  return api.members.editPermissions(input);
}

/**
 * Saves a member's permissions. Editing one's own rights changes what the console shows (menus,
 * buttons), so the signed-in user is read again in that case.
 */
export function useEditPermissions() {
  const queryClient = useQueryClient();
  const { userInfo, refreshUserInfo } = useSession();
  const userId = userInfo?.id;
  return useMutation({
    mutationFn: editPermissions,
    onSuccess: async (_answer, input) => {
      await queryClient.invalidateQueries({ queryKey: membersQueryKey(input.organizationId) });
      if (input.memberUserId === userId) await refreshUserInfo();
    },
  });
}
