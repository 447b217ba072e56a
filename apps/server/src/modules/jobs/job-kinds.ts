import type { MailMessage } from "../../providers/mail/mailer";

/**
 * Every kind of job and the payload it carries: `enqueueJob` takes the payload of the kind it is
 * given, and each handler receives the payload of its own kind, so the queue's one jsonb column is
 * typed per kind from the writer to the reader.
 */

/** Follows an AI Clone's training on the model server until it is ready or failed. */
export const TRAINING_POLL_JOB = "training-poll";
/** Sends one webhook delivery (its signed body is in its row). */
export const WEBHOOK_DELIVERY_JOB = "webhook-delivery";
/** Sends one alert mail to one recipient. */
export const ALERT_MAIL_JOB = "alert-mail";

export interface JobPayloads {
  [TRAINING_POLL_JOB]: { requestId: string; identityId: string };
  [WEBHOOK_DELIVERY_JOB]: { deliveryId: string };
  [ALERT_MAIL_JOB]: MailMessage;
}

export type JobKind = keyof JobPayloads;

/** Every kind, once (the record's type refuses a missing or an unknown one). */
const JOB_KINDS: Record<JobKind, true> = {
  [TRAINING_POLL_JOB]: true,
  [WEBHOOK_DELIVERY_JOB]: true,
  [ALERT_MAIL_JOB]: true,
};

export function isJobKind(kind: string): kind is JobKind {
  return Object.hasOwn(JOB_KINDS, kind);
}
/** The payload of some job, as the `payload` column holds it; its `kind` says which. */
export type JobPayload = JobPayloads[JobKind];

export interface JobContext {
  /** Aborted when this worker loses the job (its lease could not be renewed): stop and let go. */
  signal: AbortSignal;
}

export type JobHandler<K extends JobKind> = (payload: JobPayloads[K], context: JobContext) => Promise<void>;

/** Handlers by kind; a worker claims only the kinds it has a handler for. */
export type JobHandlers = { [K in JobKind]?: JobHandler<K> };
