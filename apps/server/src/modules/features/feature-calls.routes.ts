import multipart from "@fastify/multipart";
import {
  FEATURES,
  type Feature,
  IDEMPOTENCY_WAIT_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
  IDENTITY_REQUEST_HEADER,
  keyFeatureNotAllowedText,
  MAX_IMAGE_BYTES,
  PROJECT_HEADER,
  TRAINING_MAX_IMAGES,
} from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";
import { AppError } from "../../errors";
import { bearerKeyOf, requireApiKey } from "../../http/api-key-auth";
import { requirePlaygroundAccess } from "../access/access.service";
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
import { claimIdempotencyKey, hashFeatureRequest, idempotencyKeyOf } from "./idempotency";
import { completeIdempotencyKey, releaseIdempotencyKey } from "./idempotency.store";
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
    // The organization's money state comes with the key, so admitting the call costs no query.
    const principal = await requireApiKey(deps, bearer, request, reply, { readBudgetStop: true });
    return {
      organizationId: principal.organizationId,
      projectId: principal.projectId,
      userId: null,
      apiKeyId: principal.apiKeyId,
      keyRules: principal.rules,
      clientIp: request.ip,
      organizationState: principal.organizationState,
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
}
