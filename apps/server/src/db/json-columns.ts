import type { SellerDetails } from "../config";
import type { MailMessage } from "../providers/mail/mailer";
import type { CardDetails } from "../providers/payments/payments-provider";

/**
 * The shapes of the schema's typed JSON columns. They live beside the schema, not in the modules that
 * write them, so the schema imports nothing from above the database layer.
 */

/** What a document keeps from the moment it was issued (the `billing` column). */
export interface InvoiceSnapshot {
  organizationName: string;
  billingName: string | null;
  billingEmail: string | null;
  taxId: string | null;
  address: string | null;
  city: string | null;
  state: string | null;
  zipCode: string | null;
  country: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  /** Absent on documents issued before the seller was configured: the current seller is printed. */
  seller?: SellerDetails;
  /** Absent on the first invoices, which were all recharges. */
  description?: string;
  /** The invoice a credit note or a reinstatement refers to. */
  relatedInvoice?: string;
}

/** What the sandbox keeps of a card (the `card` column): its display details and how it behaves. */
export interface SandboxCard extends CardDetails {
  behaviour: "ok" | "insufficient-funds";
}

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

/** The payload of some job, as the `payload` column holds it; its `kind` says which. */
export type JobPayload = JobPayloads[JobKind];
