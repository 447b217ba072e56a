import type { CallRequest, changePasswordCall } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export type ChangePasswordInput = CallRequest<typeof changePasswordCall>;

export function changePassword(input: ChangePasswordInput) {
  return api.users.changePassword(input);
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
