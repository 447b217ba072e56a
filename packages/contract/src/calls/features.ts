import { z } from "zod";
import { historyRequestRecordSchema } from "../entities";
import { usdSchema } from "../fields";

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
