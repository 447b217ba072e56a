import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function logoutAllSessions() {
  return api.users.logoutAllSessions({});
}

/** Ends every session on the server, this one included, then signs out here. */
export function useLogoutAllSessions() {
  const { logout } = useSession();
  return useMutation({
    mutationFn: logoutAllSessions,
    onSuccess: () => logout(),
  });
}
