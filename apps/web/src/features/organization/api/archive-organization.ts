import type { DeleteOrganizationRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function archiveOrganization(input: DeleteOrganizationRequest) {
  return api.organizations.delete(input);
}

/**
 * Archives the organization. Dropping it from the cached user makes the selection fall back to the
 * first remaining organization and its first project.
 */
export function useArchiveOrganization() {
  const queryClient = useQueryClient();
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: archiveOrganization,
    onSuccess: (_answer, input) => {
      queryClient.removeQueries({ queryKey: ["organizations", input.organizationId] });
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.filter(
          (organization) => organization.id !== input.organizationId,
        ),
      }));
    },
  });
}
