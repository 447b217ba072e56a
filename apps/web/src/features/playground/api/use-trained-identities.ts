import type { TrainedIdentity } from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

export const trainedIdentitiesQueryKey = (projectId: string) =>
  ["playground", projectId, "trained-identities"] as const;

/** The first page of a project's AI Clones, newest first (finished trainings only). */
export function getTrainedIdentities(projectId: string, signal?: AbortSignal) {
  return api.playground.getTrainedIdentities({ projectId, offset: 0 }, { signal });
}

export function trainedIdentitiesQueryOptions(projectId: string) {
  return queryOptions({
    queryKey: trainedIdentitiesQueryKey(projectId),
    queryFn: ({ signal }) => getTrainedIdentities(projectId, signal),
    // A clone's status moves from training to ready while the page is open.
    staleTime: 30_000,
    retry: false,
  });
}

/**
 * The AI Clones of the selected project for the identity pickers (001 §2 Pegasus generation, Identity
 * inpainting). A load failure is silently ignored (001 §8): the list simply stays empty.
 */
export function useTrainedIdentities(projectId: string | null): {
  identities: TrainedIdentity[];
  isLoading: boolean;
} {
  const query = useQuery({
    ...trainedIdentitiesQueryOptions(projectId ?? ""),
    enabled: projectId !== null,
  });
  return { identities: query.data?.requests ?? [], isLoading: query.isLoading };
}
