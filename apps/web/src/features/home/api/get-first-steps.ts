import type { FirstSteps } from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";

/** While a step is open, how often the checklist looks again (a call made from a terminal ticks it). */
export const FIRST_STEPS_REFRESH_MS = 8_000;

export function allStepsDone(steps: FirstSteps): boolean {
  return steps.cardAdded && steps.recharged && steps.apiKeyCreated && steps.apiCallMade;
}

export function firstStepsQueryOptions(organizationId: string, enabled: boolean) {
  return queryOptions({
    queryKey: ["first-steps", organizationId] as const,
    queryFn: ({ signal }) => api.organizations.firstSteps({ organizationId }, { signal }),
    enabled: enabled && organizationId !== "",
    retry: false,
    refetchInterval: (query) =>
      query.state.data && allStepsDone(query.state.data) ? false : FIRST_STEPS_REFRESH_MS,
    refetchIntervalInBackground: false,
  });
}

export function useFirstSteps(organizationId: string, enabled: boolean) {
  return useQuery(firstStepsQueryOptions(organizationId, enabled));
}
