import { type HistoryRequestRecord, identityStatusSchema } from "@prism/contract";

/** What a row of Your AI Clones shows (sending while the call runs, then pending and later statuses). */
export type TrainingRowStatus = "sending" | "pending" | "training" | "ready" | "failed";

export const TRAINING_STATUS_LABELS: Record<TrainingRowStatus, string> = {
  sending: "Sending",
  pending: "Pending",
  training: "Training",
  ready: "Ready",
  failed: "Failed",
};

/**
 * The row status of a training request. The call answers once the model server has accepted the
 * photos: the stored request is then `done`, with the identity's status in its response body (a
 * request still `generating` is being submitted, shown as pending); `error` means the training could
 * not be started.
 */
export function trainingRowStatus(
  item: Pick<HistoryRequestRecord, "status" | "response_data"> & { local?: boolean },
): TrainingRowStatus {
  if (item.status === "error") return "failed";
  if (item.status === "generating") return item.local ? "sending" : "pending";
  const body = item.response_data.body;
  const reported = typeof body === "object" && body !== null && "status" in body ? body.status : undefined;
  const status = identityStatusSchema.safeParse(reported);
  return status.success ? status.data : "pending";
}

/** Whether the row may still change: its list is re-read while any row is pending or training. */
export function isTrainingInProgress(status: TrainingRowStatus): boolean {
  return status === "pending" || status === "training";
}
