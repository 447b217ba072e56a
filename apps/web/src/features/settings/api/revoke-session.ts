import type { CallRequest, ListSessionsResponse, revokeSessionCall } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { sessionsQueryKey } from "./get-sessions";

export function revokeSession(input: CallRequest<typeof revokeSessionCall>) {
  return api.sessions.revoke(input);
}

/** Signs one device out; it leaves the list once the server has confirmed. */
export function useRevokeSession() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeSession,
    onSuccess: (_answer, input) =>
      queryClient.setQueryData<ListSessionsResponse>(sessionsQueryKey, (current) =>
        current
          ? { sessions: current.sessions.filter((session) => session.id !== input.sessionId) }
          : current,
      ),
  });
}
