import { featureByEndpoint, type IdentityStatus } from "@prism/contract";
import { eq } from "drizzle-orm";
import { featureRequests } from "../../db/schema";
import { ProviderError, type ProviderFile } from "../../providers/inference/feature-provider";
import type { HttpFeatureProvider } from "../../providers/inference/http-provider";
import { enqueueJob, type JobHandler, JobRetryLater } from "../jobs/job-queue";
import { settle } from "../ledger/ledger.service";
import {
  failRequest,
  type GatewayDeps,
  requireAvailableProvider,
  TRAINING_POLL_JOB,
  TRAINING_SUBMIT_JOB,
} from "./feature-calls.service";
import { addUsage } from "./feature-requests.store";

const POLL_INTERVAL_MS = 30_000;
const FINAL_STATUSES = new Set<IdentityStatus>(["ready", "failed"]);

function isIdentityStatus(value: unknown): value is IdentityStatus {
  return value === "pending" || value === "training" || value === "ready" || value === "failed";
}

/**
 * AI Clone training runs from the job queue: submit the stored images to the model server (charged
 * when it accepts, refunded when it refuses or every retry fails), then poll the identity's status
 * until it is ready or failed, so the console can show it moving.
 */
export function trainingJobHandlers(
  deps: Omit<GatewayDeps, "log"> & { log: GatewayDeps["log"] },
): Record<string, JobHandler> {
  const loadRow = async (requestId: string) => {
    const [row] = await deps.db.select().from(featureRequests).where(eq(featureRequests.id, requestId));
    return row;
  };

  return {
    [TRAINING_SUBMIT_JOB]: async (payload) => {
      const requestId = String(payload.requestId);
      const row = await loadRow(requestId);
      if (row?.status !== "generating") return;
      const feature = featureByEndpoint(row.endpoint);
      if (!feature) return;
      // Unavailable for now: throwing lets the queue retry with backoff.
      const provider = await requireAvailableProvider(deps.registry, feature);

      const files: Record<string, ProviderFile[]> = {};
      for (const [field, keys] of Object.entries(row.requestFiles as Record<string, string[]>)) {
        files[field] = [];
        for (const [index, key] of keys.entries()) {
          const stored = await deps.files.get(key);
          if (!stored) throw new Error(`stored input ${key} is missing`);
          files[field].push({
            buffer: stored.data,
            mimeType: stored.contentType,
            filename: `${field}-${index}.${stored.contentType === "image/jpeg" ? "jpg" : "png"}`,
          });
        }
      }
      let output: Awaited<ReturnType<typeof provider.run>>;
      try {
        output = await provider.run(
          feature,
          { files, body: row.requestBody as Record<string, unknown> },
          AbortSignal.timeout(deps.providerTimeoutMs),
        );
      } catch (error) {
        if (error instanceof ProviderError && error.code === "invalid-input") {
          await failRequest(deps.db, requestId, error.message);
          return;
        }
        throw error;
      }
      const result = (output.kind === "json" ? output.body : {}) as {
        identityId?: unknown;
        status?: unknown;
      };
      if (typeof result.identityId !== "string" || result.identityId === "") {
        await failRequest(deps.db, requestId, "The model server did not return an identity.");
        return;
      }
      const status: IdentityStatus = isIdentityStatus(result.status) ? result.status : "pending";
      const day = new Date().toISOString().slice(0, 10);
      await settle(deps.db, `request:${requestId}`, async (tx) => {
        await tx
          .update(featureRequests)
          .set({
            status: "done",
            responseBody: { identityId: result.identityId, status },
            completedAt: new Date(),
          })
          .where(eq(featureRequests.id, requestId));
        await addUsage(tx, {
          projectId: row.projectId,
          endpoint: row.endpoint,
          callType: row.callType,
          day,
          units: row.units,
          costMicros: row.priceMicros,
        });
        if (!FINAL_STATUSES.has(status)) {
          await enqueueJob(
            tx,
            TRAINING_POLL_JOB,
            { requestId, identityId: result.identityId },
            new Date(Date.now() + POLL_INTERVAL_MS),
          );
        }
      });
    },

    [`${TRAINING_SUBMIT_JOB}:exhausted`]: async (payload) => {
      await failRequest(deps.db, String(payload.requestId), "The training could not be started.");
    },

    [TRAINING_POLL_JOB]: async (payload) => {
      const requestId = String(payload.requestId);
      const identityId = String(payload.identityId);
      const row = await loadRow(requestId);
      const feature = row ? featureByEndpoint(row.endpoint) : undefined;
      if (!row || !feature || row.deletedAt) return;
      const provider = deps.registry.providerFor(feature) as Partial<HttpFeatureProvider> | undefined;
      if (!provider?.trainingStatus) return;
      const { status } = await provider.trainingStatus(identityId);
      await deps.db
        .update(featureRequests)
        .set({ responseBody: { identityId, status } })
        .where(eq(featureRequests.id, requestId));
      if (!FINAL_STATUSES.has(status)) throw new JobRetryLater(POLL_INTERVAL_MS);
    },
  };
}
