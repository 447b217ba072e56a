export { Prism, type PrismOptions } from "./client.js";
export type * from "./contract.generated.js";
export {
  CALL_STATES,
  CALL_WEBHOOK_EVENTS,
  type CallState,
  type CallWebhookEvent,
  ERROR_STATUS,
  type ErrorCode,
  FEATURES,
  type FeatureId,
  type FeatureInputs,
} from "./contract.generated.js";
export { type ClientErrorCode, PrismError, WebhookVerificationError } from "./errors.js";
export type * from "./types.js";
export {
  signWebhook,
  type VerifyOptions,
  verifyWebhook,
  WEBHOOK_TOLERANCE_SECONDS,
  type WebhookHeaders,
} from "./webhooks.js";
