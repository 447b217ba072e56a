import { z } from "zod";
import { apiKeyLimitsSchema } from "./api-key-limits";
import { idSchema, isoDateSchema, isoDateTimeSchema, usdSchema } from "./fields";
import { permissionsSchema } from "./permissions-schema";

/** The entities of the spec as they travel on the wire. Ids are strings (UUIDs). */

export const projectSchema = z.object({
  id: idSchema,
  name: z.string(),
  organizationId: idSchema,
});
export type Project = z.infer<typeof projectSchema>;

export const organizationPropertiesSchema = z.object({
  /** Set until the first successful recharge; locks AI Clone training meanwhile. */
  isNew: z.boolean(),
  /** The owner requires two-factor sign-in of every member (absent: not required). */
  requireTwoFactor: z.boolean().optional(),
});

export const billingDetailsSchema = z.object({
  billingName: z.string().nullable(),
  billingEmail: z.string().nullable(),
  taxId: z.string().nullable(),
  address: z.string().nullable(),
  city: z.string().nullable(),
  state: z.string().nullable(),
  zipCode: z.string().nullable(),
  country: z.string().nullable(),
});
export type BillingDetails = z.infer<typeof billingDetailsSchema>;

export const organizationSchema = z.object({
  id: idSchema,
  name: z.string(),
  /** Dollars. */
  balance: usdSchema,
  /** The projects the caller may see, in creation order; the first is selected by default. */
  projects: z.array(projectSchema),
  /** The caller's own permissions in this organization. */
  permissions: permissionsSchema,
  properties: organizationPropertiesSchema,
  ...billingDetailsSchema.shape,
});
export type Organization = z.infer<typeof organizationSchema>;

export const userInfoSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  creationDate: isoDateTimeSchema,
  /** Active organizations the user belongs to, in the order the pickers show them. */
  organizations: z.array(organizationSchema),
});
export type UserInfo = z.infer<typeof userInfoSchema>;

export const memberSchema = z.object({
  id: idSchema,
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  permissions: permissionsSchema,
  /**
   * Ours: the live API keys the member created in the organization, which removing them (or their
   * leaving) revokes; the Remove dialog says how many.
   */
  apiKeyCount: z.number().int().min(0),
});
export type Member = z.infer<typeof memberSchema>;

export const invitationSchema = z.object({
  id: idSchema,
  email: z.string(),
});
export type Invitation = z.infer<typeof invitationSchema>;

export const paymentCardSchema = z.object({
  /** Lower-case brand: visa, mastercard, american express, discover, or another (generic logo). */
  brand: z.string(),
  /** credit, debit, prepaid or unknown. */
  funding: z.string(),
  last4: z.string(),
  country: z.string().nullable(),
  expMonth: z.number().int().min(1).max(12),
  expYear: z.number().int(),
});
export type PaymentCard = z.infer<typeof paymentCardSchema>;

/** The spec's "empty object means no card". */
export const noPaymentCardSchema = z.strictObject({});

export const paymentInfoSchema = z.union([paymentCardSchema, noPaymentCardSchema]);
export type PaymentInfo = z.infer<typeof paymentInfoSchema>;

export function hasPaymentCard(info: PaymentInfo | null | undefined): info is PaymentCard {
  return typeof info === "object" && info !== null && "last4" in info;
}

export const autorechargeSchema = z.object({
  enabled: z.boolean(),
  /** Dollars: recharge when the balance falls below this. */
  threshold: usdSchema,
  /** Dollars charged each time. */
  amount: usdSchema,
});
export type Autorecharge = z.infer<typeof autorechargeSchema>;

export const invoiceSchema = z.object({
  id: idSchema,
  /** The invoice number shown in the Invoice column and passed to retrieve-link. */
  invoiceId: z.string(),
  /** Dollars. */
  amount: usdSchema,
  createdAt: isoDateTimeSchema,
});
export type Invoice = z.infer<typeof invoiceSchema>;

export const apiKeySchema = z.object({
  id: idSchema,
  name: z.string(),
  lastFourDigits: z.string(),
  lastUsed: isoDateTimeSchema.nullable(),
  creationDate: isoDateTimeSchema,
  /** Null when the creator's account is gone; the table shows "Unknown" when both names are missing. */
  creationUserFirstName: z.string().nullable(),
  creationUserLastName: z.string().nullable(),
  /** What the key may do (ours, issue 17). */
  limits: apiKeyLimitsSchema,
  /** Dollars the key's calls cost this calendar month (UTC), calls in flight included. */
  spendThisMonth: usdSchema,
  /** Its expiry has passed: the key answers 401 `api-key-expired`. */
  expired: z.boolean(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

/** A key as returned once at creation: the only time its secret `content` leaves the server. */
export const createdApiKeySchema = apiKeySchema.extend({
  content: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const statisticsRecordSchema = z.object({
  endpoint: z.string(),
  /** Lower case. */
  callType: z.string(),
  /** The UTC day of the rollup. */
  recordDate: isoDateSchema,
  unitsUsed: z.number(),
  /** Dollars. */
  balanceUsed: usdSchema,
});
export type StatisticsRecord = z.infer<typeof statisticsRecordSchema>;

export { type EndpointDescriptor, endpointDescriptorSchema } from "./endpoint-descriptor";

/**
 * A call's state in the request log: `queued` (admitted and paid for, waiting for a slot of its
 * provider), `generating` (a provider is running it), then `done`, `error` (refunded) or `canceled`
 * (refunded). The spec's playground knows `generating`, done and error; the public API names them
 * with REQUEST_PUBLIC_STATUS.
 */
export const REQUEST_STATUSES = ["queued", "generating", "done", "error", "canceled"] as const;
export const requestStatusSchema = z.enum(REQUEST_STATUSES);
export type RequestStatus = z.infer<typeof requestStatusSchema>;

/**
 * One past feature call of a project, snake_case as the spec gives it. `request_data.files`
 * maps each file field (image, mask, source, target, images, audio) to stored file URLs; `body` holds
 * the non-file inputs. `response_data.file` is the result URL; `body` carries the transcription or the
 * training result.
 */
export const historyRequestRecordSchema = z.object({
  id: idSchema,
  request_date: isoDateTimeSchema,
  request_data: z.object({
    files: z.record(z.string(), z.array(z.string())),
    body: z.record(z.string(), z.unknown()),
  }),
  response_data: z.object({
    file: z.string().optional(),
    body: z.unknown().optional(),
  }),
  status: requestStatusSchema,
  /**
   * Ours: what the call cost, in dollars, exact from its micro-dollars: its price while it runs and
   * once done, 0 when it failed (a failed call is refunded).
   */
  cost: usdSchema,
});
export type HistoryRequestRecord = z.infer<typeof historyRequestRecordSchema>;

/** Ours: the spec shows that training statuses change over time but not their values. */
export const IDENTITY_STATUSES = ["pending", "training", "ready", "failed"] as const;
export const identityStatusSchema = z.enum(IDENTITY_STATUSES);
export type IdentityStatus = z.infer<typeof identityStatusSchema>;

/**
 * An AI Clone: its training request plus the identity it produced. `id` is the training request id,
 * sent as `x-authorization-identity-request-id` when the clone is used; `request_data.files.images`
 * lists the training images, the first being the clone's thumbnail.
 */
export const trainedIdentitySchema = historyRequestRecordSchema.extend({
  description: z.string(),
  identity_id: z.string(),
  identity_status: identityStatusSchema,
});
export type TrainedIdentity = z.infer<typeof trainedIdentitySchema>;

/**
 * The body of a training request's `response_data`, there from the call's answer on: the new AI
 * Clone's `identityId` (its `identity_id` in later calls) and the training's status, which moves from
 * `pending` to `ready` or `failed` (follow it with get-trained-identities).
 */
export const trainingResultSchema = z.object({
  identityId: z.string(),
  status: identityStatusSchema,
});
export type TrainingResult = z.infer<typeof trainingResultSchema>;

/** One transcribed segment; the result body of a transcription is `{ segments, language }`. */
export const transcriptionSegmentSchema = z.object({
  start: z.number(),
  end: z.number(),
  text: z.string(),
});

export const transcriptionResultSchema = z.object({
  language: z.string(),
  /** The audio's length in seconds, when the model reports it (the builtin engine does). */
  duration: z.number().optional(),
  segments: z.array(transcriptionSegmentSchema),
});
export type TranscriptionResult = z.infer<typeof transcriptionResultSchema>;

/** What a request's `response_data.body` holds: a training's result or a transcription. */
export type FeatureResultBody = TrainingResult | TranscriptionResult;
