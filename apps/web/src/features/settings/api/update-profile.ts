import type { CallRequest, updateProfileCall } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export type UpdateProfileInput = CallRequest<typeof updateProfileCall>;

export function updateProfile(input: UpdateProfileInput) {
  return api.users.updateProfile(input);
}

/** Saves the names and writes them into the cached user, so the top bar shows them at once. */
export function useUpdateProfile() {
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: updateProfile,
    onSuccess: (_answer, input) =>
      updateUserInfo((userInfo) => ({ ...userInfo, firstName: input.firstName, lastName: input.lastName })),
  });
}
