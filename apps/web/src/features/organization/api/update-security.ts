import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

/** Requires (or stops requiring) two-factor sign-in, and writes the setting into the cached user. */
export function useUpdateOrganizationSecurity() {
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: (input: { organizationId: string; requireTwoFactor: boolean }) =>
      api.organizations.updateSecurity(input),
    onSuccess: (_answer, input) =>
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) =>
          organization.id === input.organizationId
            ? {
                ...organization,
                properties: { ...organization.properties, requireTwoFactor: input.requireTwoFactor },
              }
            : organization,
        ),
      })),
  });
}
