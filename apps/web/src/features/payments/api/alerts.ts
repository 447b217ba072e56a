import type { UpdateAlertsRequest } from "@prism/contract";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const alertsQueryKey = (organizationId: string) =>
  ["organizations", organizationId, "alerts"] as const;

export function useAlerts(organizationId: string) {
  return useQuery({
    queryKey: alertsQueryKey(organizationId),
    queryFn: ({ signal }) => api.alerts.get({ organizationId }, { signal }),
  });
}

export function useUpdateAlerts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateAlertsRequest) => api.alerts.update(input),
    onSuccess: (_answer, { organizationId }) =>
      queryClient.invalidateQueries({ queryKey: alertsQueryKey(organizationId) }),
  });
}
