import {
  AI_CLONE_NOT_FOUND,
  AI_CLONE_NOT_READY,
  BUDGET_REACHED,
  billableUnits,
  type CallWebhookEvent,
  callOptionsSchema,
  ERROR_DIALOGS,
  EXTENSION_SIDE_REQUIRED,
  errorMessageOf,
  FEATURE_CALL_ACCESS,
  type Feature,
  IDEMPOTENCY_WAIT_SECONDS,
  IDENTITY_REQUEST_HEADER,
  keyFeatureNotAllowedText,
  keySpendCapReachedText,
  MAX_EXTENSION_SIDE,
  microsToUsd,
  PROJECT_HEADER,
  queuedCallsLimitedText,
} from "@prism/contract";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import { bearerKeyOf, requireApiKey } from "../../http/api-key-auth";
import { continueUpload } from "../../http/expect-continue";
import type { CallGateDeps } from "../../http/register-call";
import type { FeatureProvider } from "../../providers/inference/feature-provider";
import type { ProviderRegistry } from "../../providers/inference/registry";
import { authorizeProject, isUuid, NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { type ApiKeyRules, type BrokenCap, capBrokenBy } from "../api-keys/api-key-runtime.service";
import { authenticateSessionToken } from "../auth/session.service";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { cachedBalance } from "../ledger/ledger.service";
import { checkCallWebhookTarget } from "../webhooks/call-webhooks";
import type { CallIdentity, FeatureCaller, GatewayDeps } from "./call-deps";
import { type CallPreference, preferenceOf } from "./call-preference";
import { findAdmissionState, findFinishedTraining } from "./feature-requests.store";
import { claimIdempotencyKey, hashFeatureRequest, idempotencyKeyOf } from "./idempotency";
import { releaseIdempotencyKey } from "./idempotency.store";
import type { TrackedCall } from "./in-flight-calls";
import { readMultipart, type ValidatedFile, validateFiles } from "./uploads";

/**
 * Admission: everything about a feature call that is decided before any money moves — who calls, for
 * which project, whether they may and can pay, which provider will run it, its inputs read and checked,
 * its AI Clone, its exact price, its options (`Prefer`, a per-call webhook) and its Idempotency-Key.
 * What can refuse from the headers alone does so before a byte of the upload is read.
 */

/** A call admitted and ready to be paid for and queued. */
export interface AdmittedCall {
  feature: Feature;
  caller: FeatureCaller;
  provider: FeatureProvider;
  files: Record<string, ValidatedFile[]>;
  body: Record<string, unknown>;
  identity?: CallIdentity;
  units: number;
  priceMicros: bigint;
  callType: string;
  preference: CallPreference;
  webhook?: { url: string; events: CallWebhookEvent[] };
  /** The claimed Idempotency-Key (completed or released once the call is answered). */
  idempotency?: { scope: string; key: string };
  tracked?: TrackedCall;
}

export type Admission =
  | { kind: "admitted"; call: AdmittedCall }
  /** The same Idempotency-Key was answered before: its answer again, nothing run or paid. */
  | { kind: "replay"; status: number; body: unknown };

/**
 * Who is calling a feature, from the headers alone: an API key (the public API; the key's project,
 * counted against the key's request rate) or a signed-in console user naming a project in
 * `x-authorization-project` (the playground), who needs the playground permission and access to that
 * project.
 */
export async function authenticateCaller(
  deps: CallGateDeps,
  request: FastifyRequest,
  reply: FastifyReply,
  options: { readBudgetStop: boolean } = { readBudgetStop: true },
): Promise<FeatureCaller> {
  const db = deps.database.db;
  const bearer = bearerKeyOf(request);
  if (bearer) {
    // The organization's money state comes with the key, so admitting the call costs no query.
    const principal = await requireApiKey(deps, bearer, request, reply, options);
    return {
      organizationId: principal.organizationId,
      projectId: principal.projectId,
      userId: null,
      apiKeyId: principal.apiKeyId,
      keyRules: principal.rules,
      clientIp: request.ip,
      ...(principal.organizationState ? { organizationState: principal.organizationState } : {}),
    };
  }
  const user = await authenticateSessionToken(db, request.cookies[SESSION_COOKIE]);
  if (!user)
    throw new AppError("unauthenticated", "Send an API key as `Authorization: Bearer <key>`, or sign in.");
  const projectId = request.headers[PROJECT_HEADER];
  if (typeof projectId !== "string" || projectId === "") {
    throw new AppError("invalid-input", `The ${PROJECT_HEADER} header must name the project.`);
  }
  const { project } = await authorizeProject(db, user.userId, projectId, FEATURE_CALL_ACCESS.permission);
  return {
    organizationId: project.organizationId,
    projectId: project.id,
    userId: user.userId,
    apiKeyId: null,
    keyRules: null,
    clientIp: request.ip,
  };
}

/**
 * Admits one feature call (see the module's comment). Refusals are AppErrors; nothing has been
 * written when one is thrown, apart from the Idempotency-Key claim, which the caller releases.
 */
export async function admitCall(
  deps: CallGateDeps,
  gateway: GatewayDeps,
  feature: Feature,
  request: FastifyRequest,
  reply: FastifyReply,
  tracked: TrackedCall | undefined,
): Promise<Admission> {
  const idempotencyKey = idempotencyKeyOf(request);
  const preference = preferenceOf(request.headers);
  const caller = await authenticateCaller(deps, request, reply);
  const allowed = caller.keyRules?.allowedEndpoints;
  if (allowed && !allowed.includes(feature.endpoint)) {
    throw new AppError("key-feature-not-allowed", keyFeatureNotAllowedText(feature.name));
  }
  const provider = await requireAvailableProvider(gateway.registry, feature);
  await requireAdmissible(gateway, caller, feature);
  // Everything the headers can refuse has passed: a client waiting for it may now send the upload.
  continueUpload(request, reply);
  const { raw, fields } = await readMultipart(request, feature, {
    production: deps.config.isProduction,
    // The fields sent before the files may raise the least price (an AI Clone named).
    beforeFiles: async (early) => {
      const floor = priceFloorMicros(gateway, feature, early);
      if (floor > priceFloorMicros(gateway, feature)) await requireBalanceFor(gateway, caller, floor);
    },
  });
  const { webhook, featureFields } = callOptionsOf(fields, gateway);

  let idempotency: AdmittedCall["idempotency"];
  if (idempotencyKey !== undefined) {
    idempotency = {
      scope: caller.apiKeyId ? `key:${caller.apiKeyId}` : `user:${caller.userId}:${caller.projectId}`,
      key: idempotencyKey,
    };
    const identityHeader = request.headers[IDENTITY_REQUEST_HEADER];
    const claimed = await claimIdempotencyKey(
      gateway.db,
      {
        ...idempotency,
        requestHash: hashFeatureRequest({
          method: request.method,
          path: feature.endpoint,
          headers: typeof identityHeader === "string" ? { [IDENTITY_REQUEST_HEADER]: identityHeader } : {},
          fields,
          files: raw,
        }),
      },
      {
        staleAfterMs: gateway.providerTimeoutMs + deps.config.inference.sweepIntervalMs,
        waitMs: IDEMPOTENCY_WAIT_SECONDS * 1000,
        ...(tracked ? { signal: tracked.signal } : {}),
      },
    );
    if (claimed.kind === "replay") return { kind: "replay", status: claimed.status, body: claimed.body };
  }

  try {
    const files = await validateFiles(feature, raw);
    const parsed = feature.bodySchema.safeParse(featureFields);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new AppError(
        "invalid-input",
        `${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`,
        {
          field: issue?.path.join(".") || undefined,
        },
      );
    }
    const body = parsed.data as Record<string, unknown>;
    checkExtensionBounds(feature, files, body);
    // The AI Clone is checked before any money is reserved or any upload stored.
    const identity = await requireUsableIdentity(
      gateway.db,
      caller,
      feature,
      body,
      request.headers[IDENTITY_REQUEST_HEADER],
    );
    const audioSeconds = files.audio?.[0]?.durationSeconds ?? 0;
    const units = billableUnits(feature, audioSeconds);
    const price = gateway.prices.of(feature);
    const unitMicros =
      identity && price.identityUnitMicros !== undefined ? price.identityUnitMicros : price.unitMicros;
    const callType =
      identity && feature.callTypes[1]
        ? feature.callTypes[1].callType
        : (feature.callTypes[0]?.callType ?? feature.id);
    return {
      kind: "admitted",
      call: {
        feature,
        caller,
        provider,
        files,
        body,
        units,
        priceMicros: unitMicros * BigInt(units),
        callType,
        preference,
        ...(identity ? { identity } : {}),
        ...(webhook ? { webhook } : {}),
        ...(idempotency ? { idempotency } : {}),
        ...(tracked ? { tracked } : {}),
      },
    };
  } catch (error) {
    if (idempotency) await releaseIdempotencyKey(gateway.db, idempotency);
    throw error;
  }
}

/**
 * The options every feature call takes besides its own fields (callOptionsSchema): a per-call webhook
 * and which of its events to send. The rest are the feature's fields.
 */
function callOptionsOf(
  fields: Record<string, string>,
  gateway: Pick<GatewayDeps, "allowPrivateWebhooks">,
): { webhook?: { url: string; events: CallWebhookEvent[] }; featureFields: Record<string, string> } {
  const { webhook, webhook_events_filter, ...featureFields } = fields;
  const parsed = callOptionsSchema.safeParse({ webhook, webhook_events_filter });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue?.path.join(".") || "webhook";
    throw new AppError("invalid-input", `${field}: ${issue?.message ?? "invalid"}`, { field });
  }
  if (!parsed.data.webhook) return { featureFields };
  checkCallWebhookTarget(parsed.data.webhook, { allowPrivate: gateway.allowPrivateWebhooks });
  return { webhook: { url: parsed.data.webhook, events: parsed.data.webhook_events_filter }, featureFields };
}

function checkExtensionBounds(
  feature: Feature,
  files: Record<string, ValidatedFile[]>,
  body: Record<string, unknown>,
) {
  if (feature.id !== "image-extension") return;
  const image = files.image?.[0];
  const side = (name: string) => Number(body[name] ?? 0);
  const width = (image?.width ?? 0) + side("left") + side("right");
  const height = (image?.height ?? 0) + side("top") + side("bottom");
  if (width > MAX_EXTENSION_SIDE || height > MAX_EXTENSION_SIDE) {
    throw new AppError(
      "unprocessable-input",
      `The extended image may be at most ${MAX_EXTENSION_SIDE} px on each side; this one would be ${width}x${height}.`,
    );
  }
  if (side("top") + side("bottom") + side("left") + side("right") === 0) {
    throw new AppError("invalid-input", EXTENSION_SIDE_REQUIRED);
  }
}

/** The provider that serves a feature now, or the 503 that says why none does (nothing is charged). */
export async function requireAvailableProvider(
  registry: ProviderRegistry,
  feature: Feature,
): Promise<FeatureProvider> {
  const { provider, availability } = await registry.resolve(feature);
  if (!provider || !availability.available) {
    throw new AppError(
      "feature-unavailable",
      `${feature.name} is not available: ${availability.reason ?? "no provider"}`,
    );
  }
  return provider;
}

/**
 * The AI Clone a feature call names, checked before anything is reserved or stored. A call with an
 * `identity_id` (optional for Pegasus generation, required for identity inpainting) must also send
 * the clone's training request id in the identity header; that request must be a finished training of
 * the caller's own project that produced this very identity, and the identity must be ready. Another
 * tenant's clone answers the same 404 as a clone that never existed, so ids cannot be probed.
 */
export async function requireUsableIdentity(
  db: Database,
  caller: Pick<FeatureCaller, "projectId">,
  feature: Feature,
  body: Record<string, unknown>,
  headerValue: string | string[] | undefined,
): Promise<CallIdentity | undefined> {
  const header = feature.headers.find((candidate) => candidate.name === IDENTITY_REQUEST_HEADER);
  const identityId = typeof body.identity_id === "string" ? body.identity_id : undefined;
  if (!header || identityId === undefined) return undefined;
  const requestId = typeof headerValue === "string" ? headerValue.trim() : "";
  if (requestId === "") {
    throw new AppError(
      "invalid-input",
      `The ${IDENTITY_REQUEST_HEADER} header is required with identity_id: send the AI Clone's training request id (its id in get-trained-identities).`,
    );
  }
  const training = isUuid(requestId)
    ? await findFinishedTraining(db, { projectId: caller.projectId, requestId })
    : undefined;
  const result = training?.responseBody;
  if (!result || !("identityId" in result) || result.identityId !== identityId) {
    throw new AppError("not-found", AI_CLONE_NOT_FOUND);
  }
  if (result.status !== "ready") throw new AppError("identity-not-ready", AI_CLONE_NOT_READY);
  return { identityId, requestId };
}

/**
 * The least a call of `feature` can cost: one unit (a minute of audio), at the AI Clone price when the
 * fields read so far name a clone.
 */
export function priceFloorMicros(
  deps: Pick<GatewayDeps, "prices">,
  feature: Feature,
  fields: Record<string, string> = {},
): bigint {
  const price = deps.prices.of(feature);
  const withIdentity = (fields.identity_id ?? "").trim() !== "";
  return withIdentity && price.identityUnitMicros !== undefined ? price.identityUnitMicros : price.unitMicros;
}

export function spendCapReached(broken: BrokenCap): AppError {
  return new AppError(
    "key-spend-cap-reached",
    keySpendCapReachedText(broken.cap, microsToUsd(broken.capMicros)),
  );
}

export function hasSpendCap(rules: ApiKeyRules | null): rules is ApiKeyRules {
  return rules !== null && (rules.monthlySpendCapMicros !== null || rules.lifetimeSpendCapMicros !== null);
}

export function tooManyCalls(limit: number): AppError {
  return new AppError("rate-limited", queuedCallsLimitedText(limit), {
    headers: { "retry-after": "1" },
  });
}

/**
 * Whether the caller may start a call at all, decided from the headers before its upload is read (one
 * query, none when the organization's state came with the caller's key): a locked feature (training
 * before the first deposit), the organization's calls queued or running, and a balance below the least
 * the call can cost all refuse it here, so a caller who cannot pay never gets a byte of the upload
 * buffered. The reservation made later is the exact price and is the check that counts; this one only
 * refuses early.
 */
export async function requireAdmissible(
  deps: GatewayDeps,
  caller: FeatureCaller,
  feature: Feature,
): Promise<void> {
  const organization = caller.organizationState ?? (await findAdmissionState(deps.db, caller.organizationId));
  if (!organization) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  if (feature.requiresFirstDeposit && organization.isNew) {
    throw new AppError("first-deposit-required", errorMessageOf("first-deposit-required"));
  }
  const limit = deps.organizationQueuedCalls;
  if (limit > 0 && Number(organization.callsInFlight) >= limit) throw tooManyCalls(limit);
  const floor = priceFloorMicros(deps, feature);
  await requireBalanceFor(deps, caller, floor, organization.balanceMicros);
  if (organization.budgetReached) throw new AppError("budget-reached", BUDGET_REACHED);
  // From the counters read with the key: no query. The reservation's update is the check that counts.
  const broken = hasSpendCap(caller.keyRules) ? capBrokenBy(caller.keyRules, floor) : undefined;
  if (broken) throw spendCapReached(broken);
}

/** 402 unless the organization's balance covers `micros` (read now unless given). */
export async function requireBalanceFor(
  deps: Pick<GatewayDeps, "db">,
  caller: Pick<FeatureCaller, "organizationId">,
  micros: bigint,
  balanceMicros?: bigint,
): Promise<void> {
  const balance = balanceMicros ?? (await cachedBalance(deps.db, caller.organizationId));
  if (balance < micros) throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);
}
