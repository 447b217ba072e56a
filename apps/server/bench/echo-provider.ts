import type { Feature } from "@prism/contract";
import type { FeatureProvider } from "../src/providers/inference/feature-provider";

/**
 * Background removal that answers its input at once, so a call's time is the gateway's own (the
 * gateway and scale benches). Shared capacity wide enough that no bench call waits for a slot.
 */
export const echoProvider: FeatureProvider = {
  name: "http",
  capacity: { slots: 64, scope: "shared" },
  supports: (feature: Feature) => feature.id === "image-background-removal",
  availability: async () => ({ available: true }),
  run: async (_feature, input) => ({
    kind: "image",
    data: input.files.image?.[0]?.buffer ?? Buffer.alloc(0),
    mimeType: "image/png",
  }),
};
