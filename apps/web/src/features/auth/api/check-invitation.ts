import { useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/**
 * The invitation a link brought to /login (public check-invitation): the inviting organization and the
 * invited address, to greet the invitee. A failure only leaves the page plain; the members page checks
 * the invitation again after sign-in and reports problems there.
 */
export function useInvitationPreview(invitationId: string | null) {
  return useQuery({
    queryKey: ["invitation-preview", invitationId],
    queryFn: ({ signal }) => api.members.checkInvitation({ invitationId: invitationId ?? "" }, { signal }),
    enabled: invitationId !== null,
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
    refetchOnWindowFocus: false,
  });
}
