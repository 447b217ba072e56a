import multipart from "@fastify/multipart";
import {
  calls,
  ENDPOINT_DESCRIPTORS,
  FEATURES,
  type Feature,
  featureByEndpoint,
  IDEMPOTENCY_WAIT_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  IDENTITY_REQUEST_HEADER,
  keyFeatureNotAllowedText,
  MAX_IMAGE_BYTES,
  microsToUsd,
  PROJECT_HEADER,
  THUMBNAIL_SUFFIX,
  TRAINING_MAX_IMAGES,
} from "@prism/contract";
import { and, eq, gte, inArray, isNull, lt, sql } from "drizzle-orm";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { featureRequests, usageDaily } from "../../db/schema";
import { AppError } from "../../errors";
import { authenticateApiKeyRequest, bearerKeyOf, requireApiKey } from "../../http/api-key-auth";
import { registerCall, registerSessionOrApiKeyCall } from "../../http/register-call";
import { isValidFileKey } from "../../providers/storage/file-store";
import {
  isUuid,
  NOT_FOUND_PROJECT,
  requirePlaygroundAccess,
  requireProjectAccess,
} from "../access/access.service";
import { authenticateSessionToken } from "../auth/session.service";
import { SESSION_COOKIE } from "../auth/session-cookie";
import {
  admitFeatureCall,
  type FeatureCaller,
  type GatewayDeps,
  priceFloorMicros,
  requireAvailableProvider,
  requireBalanceFor,
  requireUsableIdentity,
  runFeatureCall,
} from "./feature-calls.service";
import { listHistory, toHistoryRecord } from "./feature-requests.store";
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  hashFeatureRequest,
  idempotencyKeyOf,
  releaseIdempotencyKey,
} from "./idempotency";
import type { TrackedCall } from "./in-flight-calls";
import { readMultipart, validateFiles } from "./uploads";

/**
 * Who is calling a feature, from the headers alone: an API key (the public API; the key's project,
 * counted against the key's request rate) or a signed-in console user naming a project in
 * `x-authorization-project` (the playground), who needs the playground permission and access to that
 * project.
 */
async function authenticateCaller(
  deps: AppDependencies,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FeatureCaller> {
  const db = deps.database.db;
  const bearer = bearerKeyOf(request);
  if (bearer) {
    const principal = await requireApiKey(deps, bearer, request, reply);
    return {
      organizationId: principal.organizationId,
      projectId: principal.projectId,
      userId: null,
      apiKeyId: principal.apiKeyId,
      keyRules: principal.rules,
      clientIp: request.ip,
    };
  }
  const user = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
  if (!user)
    throw new AppError("unauthenticated", "Send an API key as `Authorization: Bearer <key>`, or sign in.");
  const projectId = request.headers[PROJECT_HEADER];
  if (typeof projectId !== "string" || projectId === "") {
    throw new AppError("invalid-input", `The ${PROJECT_HEADER} header must name the project.`);
  }
  const { project } = await requirePlaygroundAccess(db, user.userId, projectId);
  return {
    organizationId: project.organizationId,
    projectId: project.id,
    userId: user.userId,
    apiKeyId: null,
    keyRules: null,
    clientIp: request.ip,
  };
}

export function registerFeatureRoutes(
  app: FastifyInstance,
  deps: AppDependencies,
  gateway: GatewayDeps,
): void {
  const db = deps.database.db;

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
          return await handleFeatureCall(feature, request, reply, tracked);
        } finally {
          tracked?.exit();
        }
      });
    }

    async function handleFeatureCall(
      feature: Feature,
      request: FastifyRequest,
      reply: FastifyReply,
      tracked: TrackedCall | undefined,
    ) {
      // Everything that can refuse the call from its headers does so before the body is read:
      // credentials, the key's expiry, address and request rate, permission and the key's features,
      // availability, and whether the organization (and the key's spend caps) can pay the least this
      // call can cost (and has a free slot).
      const idempotencyKey = idempotencyKeyOf(request);
      const caller = await authenticateCaller(deps, request, reply);
      const allowed = caller.keyRules?.allowedEndpoints;
      if (allowed && !allowed.includes(feature.endpoint)) {
        throw new AppError("key-feature-not-allowed", keyFeatureNotAllowedText(feature.name));
      }
      const provider = await requireAvailableProvider(gateway.registry, feature);
      await admitFeatureCall(gateway, caller, feature);
      const { raw, fields } = await readMultipart(request, feature, {
        production: deps.config.isProduction,
        // The fields sent before the files may raise the least price (an AI Clone named).
        beforeFiles: async (early) => {
          const floor = priceFloorMicros(gateway, feature, early);
          if (floor > priceFloorMicros(gateway, feature)) await requireBalanceFor(gateway, caller, floor);
        },
      });
      if (idempotencyKey === undefined)
        return runValidatedCall(feature, request, caller, provider, raw, fields, tracked);
      const claim = {
        scope: caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}:${caller.projectId}`,
        key: idempotencyKey,
      };
      const identityHeader = request.headers[IDENTITY_REQUEST_HEADER];
      const claimed = await claimIdempotencyKey(
        db,
        {
          ...claim,
          requestHash: hashFeatureRequest({
            method: request.method,
            path: feature.endpoint,
            headers: typeof identityHeader === "string" ? { [IDENTITY_REQUEST_HEADER]: identityHeader } : {},
            fields,
            files: raw,
          }),
        },
        {
          staleAfterMs: gateway.providerTimeoutMs + gateway.abandonedAfterMs,
          waitMs: IDEMPOTENCY_WAIT_SECONDS * 1000,
          ...(tracked ? { signal: tracked.signal } : {}),
        },
      );
      if (claimed.kind === "replay") {
        reply.header(IDEMPOTENT_REPLAYED_HEADER, "true").code(claimed.status);
        return claimed.body;
      }
      try {
        const result = await runValidatedCall(feature, request, caller, provider, raw, fields, tracked);
        await completeIdempotencyKey(db, claim, 200, result);
        return result;
      } catch (error) {
        await releaseIdempotencyKey(db, claim);
        throw error;
      }
    }

    async function runValidatedCall(
      feature: Feature,
      request: FastifyRequest,
      caller: FeatureCaller,
      provider: Awaited<ReturnType<typeof requireAvailableProvider>>,
      raw: Record<string, Buffer[]>,
      fields: Record<string, string>,
      tracked: TrackedCall | undefined,
    ) {
      const files = await validateFiles(feature, raw);
      const parsed = feature.bodySchema.safeParse(fields);
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new AppError(
          "invalid-input",
          `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
          { field: issue?.path.join(".") || undefined },
        );
      }
      const body = parsed.data as Record<string, unknown>;
      // The AI Clone is checked before any money is reserved or any upload stored.
      const identity = await requireUsableIdentity(
        db,
        caller,
        feature,
        body,
        request.headers[IDENTITY_REQUEST_HEADER],
      );
      return runFeatureCall({ ...gateway, log: request.log }, caller, feature, {
        provider,
        files,
        body,
        ...(identity ? { identity } : {}),
        ...(tracked ? { tracked } : {}),
      });
    }
  });

  /**
   * Stored inputs and results. The URL's random part is unguessable, and it is still checked: a file
   * is served only to its project's API keys and to members who may use that project.
   */
  app.get<{ Params: { organizationId: string; projectId: string; name: string } }>(
    "/v1/files/:organizationId/:projectId/:name",
    async (request, reply) => {
      const { organizationId, projectId, name } = request.params;
      const key = `${organizationId}/${projectId}/${name}`;
      const notFound = new AppError("not-found", "File not found.");
      if (!isValidFileKey(key)) throw notFound;
      const bearer = bearerKeyOf(request);
      if (bearer) {
        const principal = await authenticateApiKeyRequest(deps, bearer, request, reply);
        if (!principal || principal.projectId !== projectId) throw notFound;
      } else {
        const user = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
        if (!user) throw notFound;
        const { project } = await requirePlaygroundAccess(db, user.userId, projectId).catch(() => {
          throw notFound;
        });
        if (project.organizationId !== organizationId) throw notFound;
      }
      const stored = await gateway.files.get(key);
      if (!stored) throw notFound;
      return reply
        .type(stored.contentType)
        .header("cache-control", "private, no-cache")
        .header("x-content-type-options", "nosniff")
        .send(stored.data);
    },
  );

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

  registerCall(app, deps, calls.playground.getRequests, async ({ user, body }) => {
    await requirePlaygroundAccess(db, user.userId, body.projectId);
    const feature = featureByEndpoint(body.endpoint);
    if (!feature) throw new AppError("not-found", "Unknown feature.");
    const { rows, hasMoreItems } = await listHistory(db, body);
    return { requests: rows.map(toHistoryRecord), priceInfo: priceInfoOf(feature), hasMoreItems };
  });

  registerCall(app, deps, calls.playground.deleteRequest, async ({ user, body }) => {
    await requirePlaygroundAccess(db, user.userId, body.projectId);
    if (!isUuid(body.requestId)) throw new AppError("not-found", "Request not found.");
    const [deleted] = await db
      .update(featureRequests)
      .set({ deletedAt: new Date() })
      .where(
        and(
          eq(featureRequests.id, body.requestId),
          eq(featureRequests.projectId, body.projectId),
          isNull(featureRequests.deletedAt),
          sql`${featureRequests.status} <> 'generating'`,
        ),
      )
      .returning();
    if (!deleted) throw new AppError("not-found", "Request not found.");
    // The soft-deleted row keeps the money trail; its files go.
    const keys = [
      ...Object.values(deleted.requestFiles as Record<string, string[]>).flat(),
      deleted.responseFile,
    ].filter((key): key is string => Boolean(key));
    await Promise.all(
      keys.flatMap((key) => [gateway.files.delete(key), gateway.files.delete(`${key}${THUMBNAIL_SUFFIX}`)]),
    );
    return {};
  });

  // API users learn their AI Clones' identity ids here (with their key, for the key's own project).
  registerSessionOrApiKeyCall(
    app,
    deps,
    calls.playground.getTrainedIdentities,
    async ({ principal, body }) => {
      if (principal.kind === "api-key") {
        if (principal.key.projectId !== body.projectId) throw new AppError("not-found", NOT_FOUND_PROJECT);
      } else {
        await requirePlaygroundAccess(db, principal.user.userId, body.projectId);
      }
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
              (row.status === "error" &&
                typeof (row.responseBody as { identityId?: unknown } | null)?.identityId === "string"),
          )
          .map((row) => {
            const result = (row.responseBody ?? {}) as { identityId?: string; status?: string };
            return {
              ...toHistoryRecord(row),
              description: String((row.requestBody as { description?: string }).description ?? ""),
              identity_id: result.identityId ?? "",
              identity_status: (["pending", "training", "ready", "failed"].includes(result.status ?? "")
                ? result.status
                : "pending") as "pending" | "training" | "ready" | "failed",
            };
          }),
        hasMoreItems,
      };
    },
  );

  registerCall(app, deps, calls.statistics.get, async ({ user, body }) => {
    const allowed: string[] = [];
    for (const projectId of new Set(body.projectIds)) {
      const access = await requireProjectAccess(db, user.userId, projectId).catch(() => undefined);
      if (access) allowed.push(projectId);
    }
    const start = body.queryDate.slice(0, 10);
    const startDate = new Date(`${start}T00:00:00Z`);
    const end = new Date(Date.UTC(startDate.getUTCFullYear(), startDate.getUTCMonth() + 1, 1))
      .toISOString()
      .slice(0, 10);
    const rows =
      allowed.length === 0
        ? []
        : await db
            .select({
              endpoint: usageDaily.endpoint,
              callType: usageDaily.callType,
              day: usageDaily.day,
              units: sql<string>`sum(${usageDaily.units})`,
              costMicros: sql<string>`sum(${usageDaily.costMicros})`,
            })
            .from(usageDaily)
            .where(
              and(
                inArray(usageDaily.projectId, allowed),
                gte(usageDaily.day, start),
                lt(usageDaily.day, end),
              ),
            )
            .groupBy(usageDaily.endpoint, usageDaily.callType, usageDaily.day)
            .orderBy(usageDaily.day, usageDaily.endpoint, usageDaily.callType);
    return {
      statistics: rows.map((row) => ({
        endpoint: row.endpoint,
        callType: row.callType.toLowerCase(),
        recordDate: row.day,
        unitsUsed: Number(row.units),
        balanceUsed: microsToUsd(BigInt(row.costMicros)),
      })),
      endpoints: [...ENDPOINT_DESCRIPTORS],
    };
  });
}
