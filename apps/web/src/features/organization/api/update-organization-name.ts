import type { UpdateOrganizationNameRequest } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function updateOrganizationName(input: UpdateOrganizationNameRequest) {
  return api.organizations.updateName(input);
}

/** Renames the organization and writes the name into the cached user, so the picker follows. */
export function useUpdateOrganizationName() {
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: updateOrganizationName,
    onSuccess: (_answer, input) =>
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) =>
          organization.id === input.organizationId ? { ...organization, name: input.name } : organization,
        ),
      })),
  });
}
