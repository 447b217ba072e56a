import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** A fresh secret and its QR code; nothing changes for sign-in until a first code confirms it. */
export function startTwoFactor() {
  return api.twoFactor.start({});
}

export function useStartTwoFactor() {
  return useMutation({ mutationFn: startTwoFactor });
}
