import {
  ALERT_MAIL_JOB,
  type JobKind,
  type JobPayload,
  type JobPayloads,
  TRAINING_POLL_JOB,
  WEBHOOK_DELIVERY_JOB,
} from "../../db/json-columns";

export {
  ALERT_MAIL_JOB,
  type JobKind,
  type JobPayload,
  type JobPayloads,
  TRAINING_POLL_JOB,
  WEBHOOK_DELIVERY_JOB,
};

/** Every kind, once (the record's type refuses a missing or an unknown one). */
const JOB_KINDS: Record<JobKind, true> = {
  [TRAINING_POLL_JOB]: true,
  [WEBHOOK_DELIVERY_JOB]: true,
  [ALERT_MAIL_JOB]: true,
};

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(JOB_KINDS, kind);
}

export interface JobContext {
  /** Aborted when this worker loses the job (its lease could not be renewed): stop and let go. */
  signal: AbortSignal;
}

export type JobHandler<K extends JobKind> = (payload: JobPayloads[K], context: JobContext) => Promise<void>;

/** Handlers by kind; a worker claims only the kinds it has a handler for. */
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };
