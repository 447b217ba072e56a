import { z } from "zod";
import type { CallAccess } from "../define-call";
import { historyRequestRecordSchema } from "../entities";
import { usdSchema } from "../fields";

/**
 * Who may make a feature call (the catalog's multipart endpoints, which are no `defineCall`s), follow or
 * cancel one, or read its stored files: an API key of the project, or a member with the playground right
 * on the project named (the `x-authorization-project` header, or the file's path).
 */
export const FEATURE_CALL_ACCESS = {
  scope: "project",
  permission: "organization.playground",
} as const satisfies CallAccess;

/**
 * The answer of every feature call (`POST /v1/images/*`, `/v1/speech/*`, multipart; see the catalog):
 * the organization's balance after the charge and the stored request. Training answers as soon as the
 * model server has accepted the photos: the request is `done` (charged) and its `response_data.body`
 * carries the new AI Clone's `identityId` and the training's status, which moves on in the background.
 */
export const featureCallResponse = z.object({
  /** Dollars. */
  balance: usdSchema,
  /** Ours: what this call cost, in dollars (exact from micro-dollars; the ledger's debit for it). */
  cost: usdSchema,
  request: historyRequestRecordSchema,
});
export type FeatureCallResponse = z.infer<typeof featureCallResponse>;
