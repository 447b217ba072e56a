import type { TrainedIdentity } from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** Our choice: a project has few clones; stop paging after this many pages all the same. */
const MAX_PAGES = 10;
const NO_IDENTITIES: TrainedIdentity[] = [];

/** Every AI Clone of the project, newest first, following `hasMoreItems`. */
async function listTrainedIdentities(projectId: string, signal?: AbortSignal): Promise<TrainedIdentity[]> {
  const identities: TrainedIdentity[] = [];
  const seen = new Set<string>();
  let offset = 0;
  for (let page = 0; page < MAX_PAGES; page += 1) {
    const answer = await api.playground.getTrainedIdentities({ projectId, offset }, { signal });
    for (const identity of answer.requests) {
      if (seen.has(identity.id)) continue;
      seen.add(identity.id);
      identities.push(identity);
    }
    if (!answer.hasMoreItems || answer.requests.length === 0) break;
    offset += answer.requests.length;
  }
  return identities;
}

export function trainedIdentitiesQueryOptions(projectId: string | null) {
  return queryOptions({
    queryKey: ["playground", "trained-identities", projectId] as const,
    queryFn: ({ signal }) => (projectId ? listTrainedIdentities(projectId, signal) : Promise.resolve([])),
    enabled: projectId !== null,
    // A failed load is silently ignored: the picker simply offers no clone.
    retry: false,
  });
}

/**
 * The project's AI Clones for an identity picker (Pegasus generation, identity inpainting). Loading
 * failures are ignored on purpose, so callers only ever see a list, empty while loading.
 */
export function useTrainedIdentities(projectId: string | null): {
  identities: TrainedIdentity[];
  isLoading: boolean;
  isLoaded: boolean;
} {
  const query = useQuery(trainedIdentitiesQueryOptions(projectId));
  return {
    identities: query.data ?? NO_IDENTITIES,
    isLoading: query.isLoading,
    isLoaded: query.isSuccess || query.isError,
  };
}
