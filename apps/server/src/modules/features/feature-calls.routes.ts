import multipart from "@fastify/multipart";
import {
  FEATURES,
  type Feature,
  IDEMPOTENT_REPLAYED_HEADER,
  MAX_IMAGE_BYTES,
  MULTIPART_MAX_FIELD_BYTES,
  MULTIPART_MAX_FIELDS,
  MULTIPART_MAX_FILES,
  MULTIPART_MAX_PARTS,
  UNREAD_BODY_DRAIN_MS,
} from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { discardUnreadBody, type UnreadBodyLimits } from "../../http/unread-body";
import { admitCall } from "./admit-call";
import { answerCall } from "./call-answer";
import type { GatewayDeps } from "./call-deps";
import { submitCall } from "./submit-call";

/** What these routes use of the application's dependencies. */
export type FeatureCallsRouteDeps = Pick<AppDependencies, "config" | "database">;

/**
 * The feature endpoints (the catalog's), for the playground and the public API alike: admit (who,
 * inputs, price) → submit (reserve; start at once or queue) → answer (wait, or 202 as `Prefer` asks).
 */
export function registerFeatureRoutes(
  app: FastifyInstance,
  deps: FeatureCallsRouteDeps,
  gateway: GatewayDeps,
): void {
  app.register(async (scope) => {
    await scope.register(multipart, {
      limits: {
        fileSize: MAX_IMAGE_BYTES,
        files: MULTIPART_MAX_FILES,
        fields: MULTIPART_MAX_FIELDS,
        fieldSize: MULTIPART_MAX_FIELD_BYTES,
        parts: MULTIPART_MAX_PARTS,
      },
    });
    // admitCall reads the upload itself, once the headers have passed (Expect: 100-continue).
    scope.addHook("onRoute", (route) => {
      route.config = { ...route.config, deferredBody: true };
    });
    // A call refused before its upload was read (or half-way) lets the client finish sending it,
    // thrown away within bounds, so that every client reads the refusal (see unread-body.ts).
    const unreadBodyLimits = new Map<string, UnreadBodyLimits>(
      FEATURES.map((feature) => [
        feature.endpoint,
        { maxBytes: largestBodyBytes(feature), maxMs: UNREAD_BODY_DRAIN_MS },
      ]),
    );
    scope.addHook("onSend", async (request, reply, payload) => {
      const limits = unreadBodyLimits.get(request.routeOptions.url ?? "");
      if (limits) discardUnreadBody(request, reply, limits);
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

/** Multipart framing per part (boundary, Content-Disposition, Content-Type), generously. */
const MULTIPART_PART_OVERHEAD_BYTES = 1024;

/** The most a legitimate call of `feature` sends: each file input at its limits, its fields, the framing. */
function largestBodyBytes(feature: Feature): number {
  const files = feature.inputs.files.reduce((sum, input) => sum + input.maxBytes * input.maxCount, 0);
  return (
    files +
    MULTIPART_MAX_FIELDS * MULTIPART_MAX_FIELD_BYTES +
    MULTIPART_MAX_PARTS * MULTIPART_PART_OVERHEAD_BYTES
  );
}
