import type { InsertWebhookRequest, UpdateWebhookRequest } from "@prism/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const webhooksQueryKey = (organizationId: string) =>
  ["organizations", organizationId, "webhooks"] as const;
export const deliveriesQueryKey = (organizationId: string, endpointId: string) =>
  [...webhooksQueryKey(organizationId), endpointId, "deliveries"] as const;

export function webhooksQueryOptions(organizationId: string) {
  return queryOptions({
    queryKey: webhooksQueryKey(organizationId),
    queryFn: ({ signal }) => api.webhooks.list({ organizationId }, { signal }),
  });
}

export function useWebhooks(organizationId: string) {
  return useQuery(webhooksQueryOptions(organizationId));
}

/** The endpoint's delivery log; refreshed while a delivery is still on its way. */
export function useDeliveries(organizationId: string, endpointId: string) {
  return useQuery({
    queryKey: deliveriesQueryKey(organizationId, endpointId),
    queryFn: ({ signal }) => api.webhooks.deliveries({ organizationId, endpointId }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === "pending") ? 2_000 : false,
  });
}

export function useInsertWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InsertWebhookRequest) => api.webhooks.insert(input),
    onSuccess: (_answer, { organizationId }) =>
      queryClient.invalidateQueries({ queryKey: webhooksQueryKey(organizationId) }),
  });
}

export function useUpdateWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateWebhookRequest) => api.webhooks.update(input),
    onSuccess: (_answer, { organizationId }) =>
      queryClient.invalidateQueries({ queryKey: webhooksQueryKey(organizationId) }),
  });
}

export function useDeleteWebhook() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { organizationId: string; endpointId: string }) => api.webhooks.delete(input),
    onSuccess: (_answer, { organizationId }) =>
      queryClient.invalidateQueries({ queryKey: webhooksQueryKey(organizationId) }),
  });
}

/** Send test event and Resend: both add a delivery to the endpoint's log. */
export function useQueueDelivery() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { organizationId: string; endpointId: string; deliveryId?: string }) =>
      input.deliveryId
        ? api.webhooks.resend({ ...input, deliveryId: input.deliveryId })
        : api.webhooks.sendTest(input),
    onSuccess: (_answer, { organizationId, endpointId }) =>
      queryClient.invalidateQueries({ queryKey: deliveriesQueryKey(organizationId, endpointId) }),
  });
}

export const callDeliveriesQueryKey = (organizationId: string) =>
  [...webhooksQueryKey(organizationId), "per-call", "deliveries"] as const;

/** The newest per-call webhook deliveries; refreshed while one is still on its way. */
export function useCallDeliveries(organizationId: string) {
  return useQuery({
    queryKey: callDeliveriesQueryKey(organizationId),
    queryFn: ({ signal }) => api.webhooks.callDeliveries({ organizationId }, { signal }),
    refetchInterval: (query) =>
      query.state.data?.deliveries.some((delivery) => delivery.status === "pending") ? 2_000 : false,
  });
}

/** Reveals the per-call webhook secret (made on first use); asks for a sign-in proof when needed. */
export function useRevealCallSecret() {
  return useMutation({
    mutationFn: (organizationId: string) => api.webhooks.callSecret({ organizationId }),
  });
}

/** Replaces the per-call webhook secret; the answer holds the new one. */
export function useRotateCallSecret() {
  return useMutation({
    mutationFn: (organizationId: string) => api.webhooks.rotateCallSecret({ organizationId }),
  });
}
