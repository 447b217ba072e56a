import {
  featureByEndpoint,
  type IdentityStatus,
  microsToUsd,
  TRAINING_FAILED_REFUNDED,
  type TrainingResult,
} from "@prism/contract";
import type { Database } from "../../db/client";
import type { ProviderRegistry } from "../../providers/inference/registry";
import { rearmLowBalance } from "../alerts/alerts.store";
import { emitEvent } from "../events/events.service";
import { type JobHandlers, TRAINING_POLL_JOB } from "../jobs/job-kinds";
import { JobRetryLater } from "../jobs/job-queue";
import { refundSettled } from "../ledger/ledger.service";
import { removeUsage } from "./feature-requests.store";
import { TRAINING_POLL_INTERVAL_MS } from "./run-call";
import {
  findTrainingRequest,
  markTrainingFailed,
  markTrainingReady,
  setTrainingStatus,
  type TrainingRequestRow,
} from "./training.store";

const FINAL_STATUSES = new Set<IdentityStatus>(["ready", "failed"]);

/**
 * AI Clone training is submitted within the feature call (the model server answers its identity at
 * once, see runFeatureCall); the job queue then follows the identity's status until it is ready or
 * failed, so the console and get-trained-identities show it moving. A poll only reads the model
 * server's status and writes it down, so running one twice does no harm. Rows deleted from the history
 * (soft-deleted) are followed too, so a failure after the deletion is still refunded.
 */
export function trainingJobHandlers(deps: { db: Database; registry: ProviderRegistry }): JobHandlers {
  return {
    [TRAINING_POLL_JOB]: async (payload, { signal }) => {
      const { requestId, identityId } = payload;
      const row = await findTrainingRequest(deps.db, requestId);
      const feature = row ? featureByEndpoint(row.endpoint) : undefined;
      // A row deleted from the history is still followed: a training that fails after its row was
      // deleted was still paid for, and is refunded like any other.
      if (!row || !feature) return;
      const provider = deps.registry.providerFor(feature);
      if (!provider?.trainingStatus) return;
      const { status } = await provider.trainingStatus(identityId, signal);
      if (status === "failed") {
        await refundFailedTraining(deps.db, row, identityId);
        return;
      }
      if (status === "ready") {
        // The write that turns the row ready also reports it: only one poll (of any process) makes it.
        await deps.db.transaction(async (tx) => {
          const turned = await markTrainingReady(tx, requestId, identityId);
          // Nobody waits for a clone whose row they deleted: no event for it.
          if (turned && !row.deletedAt) {
            await emitEvent(tx, row.organizationId, "training.ready", {
              request_id: row.id,
              project_id: row.projectId,
              identity_id: identityId,
            });
          }
        });
        return;
      }
      await setTrainingStatus(deps.db, requestId, { identityId, status });
      if (!FINAL_STATUSES.has(status)) throw new JobRetryLater(TRAINING_POLL_INTERVAL_MS);
    },
  };
}

/**
 * A training the model server reports failed after it was charged: the charge comes back through the
 * ledger (once, whatever the number of polls or processes that see the failure), and in the same
 * transaction the request turns `error` with the reason and leaves the usage rollups (the project's
 * and its key's). A poll that runs again after the refund only writes the status down.
 */
async function refundFailedTraining(
  db: Database,
  row: TrainingRequestRow,
  identityId: string,
): Promise<void> {
  const failed: TrainingResult = { identityId, status: "failed" };
  const refunded = await refundSettled(db, row.id, async (tx, money) => {
    await markTrainingFailed(tx, row.id, failed, TRAINING_FAILED_REFUNDED);
    await removeUsage(tx, {
      projectId: row.projectId,
      apiKeyId: row.apiKeyId,
      endpoint: row.endpoint,
      callType: row.callType,
      // The day the call was made, where its settlement counted it (decision 022).
      day: row.createdAt.toISOString().slice(0, 10),
      units: row.units,
      costMicros: row.priceMicros,
    });
    await emitEvent(tx, row.organizationId, "training.failed", {
      request_id: row.id,
      project_id: row.projectId,
      identity_id: identityId,
      refunded: microsToUsd(money.amountMicros),
    });
    await rearmLowBalance(tx, row.organizationId);
  });
  if (!refunded) await setTrainingStatus(db, row.id, failed);
}
