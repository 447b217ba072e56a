import type { ChangeOwnerRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";
import { membersQueryKey } from "./get-members";

export function changeOwner(input: ChangeOwnerRequest) {
  return api.organizations.changeOwner(input);
}

/** After a transfer the former owner's permissions are replaced by the ones returned. */
export function useChangeOwner() {
  const queryClient = useQueryClient();
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: changeOwner,
    onSuccess: async ({ newPermissions }, input) => {
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) =>
          organization.id === input.organizationId
            ? { ...organization, permissions: newPermissions }
            : organization,
        ),
      }));
      await queryClient.invalidateQueries({ queryKey: membersQueryKey(input.organizationId) });
    },
  });
}
