import type { FeatureStatus } from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const featureStatusQueryOptions = queryOptions({
  queryKey: ["playground", "feature-status"] as const,
  queryFn: ({ signal }) => api.playground.getFeatureStatus({}, { signal }),
  staleTime: 60_000,
});

/** Whether a feature can run on this deployment, its provider and its price (undefined while loading). */
export function useFeatureStatus(endpoint: string): {
  status: FeatureStatus | undefined;
  isLoading: boolean;
} {
  const query = useQuery(featureStatusQueryOptions);
  return {
    status: query.data?.features.find((feature) => feature.endpoint === endpoint),
    isLoading: query.isLoading,
  };
}

/** No provider serves the feature on this deployment: it needs a model server (not merely a pause). */
export function needsModelServer(status: FeatureStatus | undefined): boolean {
  return status !== undefined && !status.available && status.provider === null;
}

/** Every feature's status by endpoint, for the sidebar's badges (empty while loading or refused). */
export function useFeatureStatuses(enabled: boolean): ReadonlyMap<string, FeatureStatus> {
  const query = useQuery({ ...featureStatusQueryOptions, enabled });
  return new Map(query.data?.features.map((feature) => [feature.endpoint, feature]) ?? []);
}
