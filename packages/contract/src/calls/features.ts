import { z } from "zod";
import { historyRequestRecordSchema } from "../entities";
import { usdSchema } from "../fields";

/**
 * The answer of every feature call (`POST /v1/images/*`, `/v1/speech/*`, multipart; see the catalog):
 * the organization's balance after the charge and the stored request. Training answers at once with a
 * request whose status stays `generating` until the job finishes.
 */
export const featureCallResponse = z.object({
  /** Dollars. */
  balance: usdSchema,
  request: historyRequestRecordSchema,
});
export type FeatureCallResponse = z.infer<typeof featureCallResponse>;
