import multipart from "@fastify/multipart";
import { FEATURES, IDEMPOTENT_REPLAYED_HEADER, MAX_IMAGE_BYTES, TRAINING_MAX_IMAGES } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { admitCall } from "./admit-call";
import { answerCall } from "./call-answer";
import type { GatewayDeps } from "./call-deps";
import { submitCall } from "./submit-call";

/**
 * The feature endpoints (the catalog's), for the playground and the public API alike: admit (who,
 * inputs, price) → submit (reserve; start at once or queue) → answer (wait, or 202 as `Prefer` asks).
 */
export function registerFeatureRoutes(
  app: FastifyInstance,
  deps: AppDependencies,
  gateway: GatewayDeps,
): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_IMAGE_BYTES,
        files: TRAINING_MAX_IMAGES + 2,
        fields: 32,
        fieldSize: 16 * 1024,
        parts: 64,
      },
    });
    // A call refused before its upload was read ends the connection: draining the rest of a 30 MB
    // body only to throw it away is what the early refusal is there to avoid.
    scope.addHook("onSend", async (request, reply, payload) => {
      if (!request.raw.complete) reply.header("connection", "close");
      return payload;
    });
    for (const feature of FEATURES) {
      scope.post(feature.endpoint, async (request, reply) => {
        // Tracked from the first byte, so a graceful stop waits for it (and a draining process refuses it).
        const tracked = gateway.inFlight?.enter();
        try {
          const admission = await admitCall(
            deps,
            { ...gateway, log: request.log },
            feature,
            request,
            reply,
            tracked,
          );
          if (admission.kind === "replay") {
            reply.header(IDEMPOTENT_REPLAYED_HEADER, "true").code(admission.status);
            return admission.body;
          }
          const submitted = await submitCall({ ...gateway, log: request.log }, admission.call);
          return await answerCall(gateway, submitted, reply, deps.config.publicUrl);
        } finally {
          tracked?.exit();
        }
      });
    }
  });
}
