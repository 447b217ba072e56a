import {
  calls,
  FEATURES,
  type Feature,
  featureByEndpoint,
  IDENTITY_STATUSES,
  type IdentityStatus,
  microsToUsd,
  REQUEST_NOT_FOUND,
} from "@prism/contract";
import type { FastifyInstance } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { registerCall, registerSessionOrApiKeyCall } from "../../http/register-call";
import { isUuid } from "../access/access.service";
import { recordAudit } from "../audit/audit.store";
import type { GatewayDeps } from "../features/call-deps";
import { toHistoryRecord } from "../features/feature-requests.store";
import { deleteImagesWithThumbnails } from "../files/thumbnails";
import { decodeCursor, encodeCursor } from "../usage/request-log.service";
import { listHistory, softDeleteRequest } from "./playground.store";

/** What these routes use of the application's dependencies. */
export type PlaygroundRouteDeps = Pick<AppDependencies, "config" | "database">;

/** A training's result as its row stores it (`{ identityId, status }`), read without trusting its shape. */
function trainingResultOf(responseBody: unknown): { identityId?: string; status: IdentityStatus } {
  const stored: Record<string, unknown> =
    typeof responseBody === "object" && responseBody !== null ? { ...responseBody } : {};
  return {
    ...(typeof stored.identityId === "string" ? { identityId: stored.identityId } : {}),
    status: IDENTITY_STATUSES.find((known) => known === stored.status) ?? "pending",
  };
}

/**
 * The playground's console calls around the metered pipeline: which features can run and at what price,
 * a project's history and its deletion, and the project's trained AI Clones.
 */
export function registerPlaygroundRoutes(
  app: FastifyInstance,
  deps: PlaygroundRouteDeps,
  gateway: Pick<GatewayDeps, "registry" | "prices" | "files">,
): void {
  const db = deps.database.db;

  const priceInfoOf = (feature: Feature) => {
    const price = gateway.prices.of(feature);
    return {
      price: microsToUsd(price.unitMicros),
      ...(price.identityUnitMicros !== undefined
        ? { priceIdentity: microsToUsd(price.identityUnitMicros) }
        : {}),
    };
  };

  registerCall(app, deps, calls.playground.getFeatureStatus, async () => {
    const statuses = await gateway.registry.statusOfAll();
    return {
      features: FEATURES.map((feature) => {
        const status = statuses.get(feature.id);
        return {
          endpoint: feature.endpoint,
          available: status?.availability.available ?? false,
          reason: status?.availability.available ? null : (status?.availability.reason ?? "Unavailable."),
          provider: status?.provider?.name ?? null,
          priceInfo: priceInfoOf(feature),
        };
      }),
    };
  });

  // Every playground call names its project; the gate (the calls' declared access) checked the
  // project and the playground right before the handler runs.
  registerCall(app, deps, calls.playground.getRequests, async ({ body }) => {
    const feature = featureByEndpoint(body.endpoint);
    if (!feature) throw new AppError("not-found", "Unknown feature.");
    const after = body.cursor ? decodeCursor(body.cursor) : undefined;
    const { rows, hasMoreItems, next } = await listHistory(db, { ...body, ...(after ? { after } : {}) });
    return {
      requests: rows.map(toHistoryRecord),
      priceInfo: priceInfoOf(feature),
      hasMoreItems,
      nextCursor: next ? encodeCursor(next) : null,
    };
  });

  registerCall(app, deps, calls.playground.deleteRequest, async ({ body }) => {
    if (!isUuid(body.requestId)) throw new AppError("not-found", REQUEST_NOT_FOUND);
    const deleted = await db.transaction(async (tx) => {
      const row = await softDeleteRequest(tx, body);
      if (!row) throw new AppError("not-found", REQUEST_NOT_FOUND);
      await recordAudit(tx, {
        organizationId: row.organizationId,
        action: "playground-request.deleted",
        target: { type: "request", id: row.id },
        before: { projectId: row.projectId, endpoint: row.endpoint },
      });
      return row;
    });
    // The soft-deleted row keeps the money trail; its files go.
    const keys = [...Object.values(deleted.requestFiles).flat(), deleted.responseFile].filter(
      (key): key is string => Boolean(key),
    );
    await deleteImagesWithThumbnails(gateway.files, keys);
    return {};
  });

  // API users learn their AI Clones' identity ids here (with their key, for the key's own project).
  registerSessionOrApiKeyCall(app, deps, calls.playground.getTrainedIdentities, async ({ body }) => {
    // AI Clone training needs a GPU model server; no identities exist until one is configured.
    const { rows, hasMoreItems } = await listHistory(db, {
      projectId: body.projectId,
      endpoint: "/v1/images/pegasus-training",
      offset: body.offset,
    });
    return {
      // A training that failed after it was charged (and refunded) stays listed as failed.
      requests: rows
        .filter(
          (row) =>
            row.status === "done" ||
            (row.status === "error" && trainingResultOf(row.responseBody).identityId !== undefined),
        )
        .map((row) => {
          const result = trainingResultOf(row.responseBody);
          return {
            ...toHistoryRecord(row),
            description: String(row.requestBody.description ?? ""),
            identity_id: result.identityId ?? "",
            identity_status: result.status,
          };
        }),
      hasMoreItems,
    };
  });
}
