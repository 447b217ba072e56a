import { featureByEndpoint, type IdentityStatus } from "@prism/contract";
import { eq } from "drizzle-orm";
import type { Database } from "../../db/client";
import { featureRequests } from "../../db/schema";
import type { HttpFeatureProvider } from "../../providers/inference/http-provider";
import type { ProviderRegistry } from "../../providers/inference/registry";
import { type JobHandler, JobRetryLater } from "../jobs/job-queue";
import { TRAINING_POLL_INTERVAL_MS, TRAINING_POLL_JOB } from "./feature-calls.service";

const FINAL_STATUSES = new Set<IdentityStatus>(["ready", "failed"]);

/**
 * AI Clone training is submitted within the feature call (the model server answers its identity at
 * once, see runFeatureCall); the job queue then follows the identity's status until it is ready or
 * failed, so the console and get-trained-identities show it moving. A poll only reads the model
 * server's status and writes it down, so running one twice does no harm.
 */
export function trainingJobHandlers(deps: {
  db: Database;
  registry: ProviderRegistry;
}): Record<string, JobHandler> {
  return {
    [TRAINING_POLL_JOB]: async (payload, { signal }) => {
      const requestId = String(payload.requestId);
      const identityId = String(payload.identityId);
      const [row] = await deps.db.select().from(featureRequests).where(eq(featureRequests.id, requestId));
      const feature = row ? featureByEndpoint(row.endpoint) : undefined;
      if (!row || !feature || row.deletedAt) return;
      const provider = deps.registry.providerFor(feature) as Partial<HttpFeatureProvider> | undefined;
      if (!provider?.trainingStatus) return;
      const { status } = await provider.trainingStatus(identityId, signal);
      await deps.db
        .update(featureRequests)
        .set({ responseBody: { identityId, status } })
        .where(eq(featureRequests.id, requestId));
      if (!FINAL_STATUSES.has(status)) throw new JobRetryLater(TRAINING_POLL_INTERVAL_MS);
    },
  };
}
