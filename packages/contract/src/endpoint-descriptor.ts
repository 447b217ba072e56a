import { z } from "zod";

// Its own file so that the catalog, which builds the descriptors, need not import the entities (whose
// API key limits import the catalog).

export const endpointDescriptorSchema = z.object({
  endpoint: z.string(),
  callType: z.string(),
  name: z.string(),
  /** The usage page sorts features by this, descending. */
  orderPos: z.number(),
});
export type EndpointDescriptor = z.infer<typeof endpointDescriptorSchema>;
