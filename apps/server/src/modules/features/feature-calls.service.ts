import { randomBytes, randomUUID } from "node:crypto";
import {
  AI_CLONE_NOT_FOUND,
  AI_CLONE_NOT_READY,
  BUDGET_REACHED,
  billableUnits,
  CALL_INTERRUPTED_BY_RESTART,
  CALL_NOT_COMPLETED_REASON,
  concurrentCallsLimitedText,
  ERROR_DIALOGS,
  EXTENSION_SIDE_REQUIRED,
  errorMessageOf,
  type Feature,
  type FeatureCallResponse,
  type FeatureResultBody,
  FILES_NOT_STORED,
  FILES_NOT_STORED_REASON,
  IDENTITY_REQUEST_HEADER,
  type IdentityStatus,
  identityStatusSchema,
  keySpendCapReachedText,
  MAX_EXTENSION_SIDE,
  microsToUsd,
  notChargedText,
  RESTART_RETRY_AFTER_SECONDS,
  TRAINING_NO_IDENTITY,
} from "@prism/contract";
import { and, eq, type SQLWrapper, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import sharp from "sharp";
import type { Database } from "../../db/client";
import { autoRechargeSettings, featureRequests, ledgerEntries, organizations } from "../../db/schema";
import { AppError } from "../../errors";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderOutput,
} from "../../providers/inference/feature-provider";
import type { ProviderRegistry } from "../../providers/inference/registry";
import type { FileStore } from "../../providers/storage/file-store";
import { isUuid, NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { alertsConfigured, budgetReached, checkSpendAlerts } from "../alerts/alerts.service";
import { type ApiKeyRules, type BrokenCap, capBrokenBy, keyCapBrokenBy } from "../api-keys/api-keys.service";
import { keySpendCharge, releaseKeySpend } from "../api-keys/api-keys.store";
import { emitEvent, subscribed } from "../events/events.service";
import { TRAINING_POLL_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue";
import { refund, reserve, rowsOf, settleAlong } from "../ledger/ledger.service";
import {
  findFinishedTraining,
  requestRowFrom,
  toHistoryRecord,
  usageAddition,
} from "./feature-requests.store";
import type { InFlightCalls, TrackedCall } from "./in-flight-calls";

/** The first look at a new training's status; later ones follow every TRAINING_POLL_INTERVAL_MS. */
export const TRAINING_FIRST_POLL_MS = 5_000;
export const TRAINING_POLL_INTERVAL_MS = 30_000;
const IDENTITY_FINAL_STATUSES = new Set<IdentityStatus>(["ready", "failed"]);

import type { PriceBook } from "./prices";
import type { ValidatedFile } from "./uploads";

export interface FeatureCaller {
  organizationId: string;
  projectId: string;
  userId: string | null;
  apiKeyId: string | null;
  /** The API key's limits (null for a signed-in user's playground call). */
  keyRules: ApiKeyRules | null;
  /** The caller's address as the server sees it (TRUST_PROXY honoured), kept on the request row. */
  clientIp: string | null;
}

export interface GatewayDeps {
  db: Database;
  files: FileStore;
  registry: ProviderRegistry;
  prices: PriceBook;
  providerTimeoutMs: number;
  /** Feature calls one organization may have running at once (0: no limit). */
  organizationConcurrentCalls: number;
  /**
   * How long after its provider timeout a call still open counts as abandoned by a crash: it no longer
   * counts against the concurrency limit, and the sweeper refunds it.
   */
  abandonedAfterMs: number;
  log: FastifyBaseLogger;
  /** This process's running calls, for a graceful stop (absent: calls are not tracked). */
  inFlight?: InFlightCalls;
  /**
   * Called after a settled charge that left the balance below an armed auto recharge's threshold (it
   * checks again itself), not awaited by the response.
   */
  afterCharge?: (organizationId: string) => Promise<unknown>;
}

function newFileKey(caller: FeatureCaller): string {
  return `${caller.organizationId}/${caller.projectId}/${randomBytes(18).toString("base64url")}`;
}

/**
 * Stores an image re-encoded by sharp, upright (EXIF orientation applied, metadata dropped): whatever
 * was smuggled in an upload's container (trailing bytes, polyglot payloads) does not survive. Results
 * and lossless inputs are kept as PNG; JPEG inputs (training photos, photos to edit) stay JPEG at high
 * quality, since a PNG of a photo is several times larger and no better. Its thumbnail is made when it
 * is first asked for (files/thumbnails.ts), off the call's path.
 */
async function storeImage(
  store: FileStore,
  key: string,
  image: Buffer,
  format: "png" | "jpeg" = "png",
): Promise<void> {
  const pipeline = sharp(image, { limitInputPixels: false }).rotate();
  const full =
    format === "jpeg" ? await pipeline.jpeg({ quality: 95 }).toBuffer() : await pipeline.png().toBuffer();
  await store.put(key, full, format === "jpeg" ? "image/jpeg" : "image/png");
}

/** Stores each input under the key the request row already names (images re-encoded, see storeImage). */
async function storeInputs(
  deps: GatewayDeps,
  files: Record<string, ValidatedFile[]>,
  keys: Record<string, string[]>,
): Promise<void> {
  for (const [field, list] of Object.entries(files)) {
    for (const [index, file] of list.entries()) {
      const key = keys[field]?.[index];
      if (!key) throw new Error(`no key for input ${field}[${index}]`);
      if (file.mimeType.startsWith("image/")) {
        await storeImage(deps.files, key, file.buffer, file.mimeType === "image/jpeg" ? "jpeg" : "png");
      } else await deps.files.put(key, file.buffer, file.mimeType);
    }
  }
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

function toCallError(error: ProviderError): AppError {
  if (error.code === "invalid-input") return new AppError("unprocessable-input", error.message);
  if (error.code === "timeout") return new AppError("feature-timeout", errorMessageOf("feature-timeout"));
  if (error.code === "unavailable") return new AppError("feature-unavailable", error.message);
  return new AppError("feature-failed", notChargedText(error.message));
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

/** The AI Clone a feature call uses: its identity and the training request that produced it. */
export interface CallIdentity {
  identityId: string;
  requestId: string;
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

/** Calls started before this are taken for abandoned by a crash: they no longer count as in flight. */
function inFlightSince(deps: Pick<GatewayDeps, "providerTimeoutMs" | "abandonedAfterMs">): Date {
  return new Date(Date.now() - deps.providerTimeoutMs - deps.abandonedAfterMs);
}

/** The organization's calls in flight, as SQL over its id (in a select or a condition). */
function callsInFlightOf(organizationId: SQLWrapper | string, since: Date) {
  return sql<number>`(select count(*)::int from ${featureRequests}
    where ${featureRequests.organizationId} = ${organizationId}
      and ${featureRequests.status} = 'generating' and ${featureRequests.createdAt} > ${since})`;
}

function spendCapReached(broken: BrokenCap): AppError {
  return new AppError(
    "key-spend-cap-reached",
    keySpendCapReachedText(broken.cap, microsToUsd(broken.capMicros)),
  );
}

function hasSpendCap(rules: ApiKeyRules | null): rules is ApiKeyRules {
  return rules !== null && (rules.monthlySpendCapMicros !== null || rules.lifetimeSpendCapMicros !== null);
}

function tooManyCalls(limit: number): AppError {
  return new AppError("rate-limited", concurrentCallsLimitedText(limit), {
    headers: { "retry-after": "1" },
  });
}

/**
 * Whether the caller may start a call at all, decided from the headers before its upload is read (one
 * query): a locked feature (training before the first deposit), the organization's calls in flight,
 * and a balance below the least the call can cost all refuse it here, so a caller who cannot pay
 * never gets a byte of the upload buffered. The reservation made later is the exact price and is the
 * check that counts; this one only refuses early.
 */
export async function admitFeatureCall(
  deps: GatewayDeps,
  caller: FeatureCaller,
  feature: Feature,
): Promise<void> {
  const [organization] = await deps.db
    .select({
      balanceMicros: organizations.balanceMicros,
      isNew: organizations.isNew,
      inFlight: callsInFlightOf(organizations.id, inFlightSince(deps)),
      budgetReached: budgetReached(caller.organizationId),
    })
    .from(organizations)
    .where(eq(organizations.id, caller.organizationId));
  if (!organization) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  if (feature.requiresFirstDeposit && organization.isNew) {
    throw new AppError("first-deposit-required", errorMessageOf("first-deposit-required"));
  }
  const limit = deps.organizationConcurrentCalls;
  if (limit > 0 && Number(organization.inFlight) >= limit) throw tooManyCalls(limit);
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
  let balance = balanceMicros;
  if (balance === undefined) {
    const [organization] = await deps.db
      .select({ balanceMicros: organizations.balanceMicros })
      .from(organizations)
      .where(eq(organizations.id, caller.organizationId));
    balance = organization?.balanceMicros ?? 0n;
  }
  if (balance < micros) throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);
}

/**
 * One feature call, the same for the playground and the public API. The caller has
 * already been admitted ({@link admitFeatureCall}) and its inputs validated and measured; here: the
 * exact price is reserved in the same transaction that writes the request row `generating` (402 when
 * short, 429 when the organization has too many calls in flight) → inputs stored → provider with a
 * timeout → result stored → settle with the usage rollup, or refund. A training is submitted the same
 * way: the model server answers its identity at once, and the job queue follows its status.
 */
export async function runFeatureCall(
  deps: GatewayDeps,
  caller: FeatureCaller,
  feature: Feature,
  call: {
    provider: FeatureProvider;
    files: Record<string, ValidatedFile[]>;
    body: Record<string, unknown>;
    /** Checked by {@link requireUsableIdentity} before the call. */
    identity?: CallIdentity;
    /** The process's hold on this call: a shutdown's deadline aborts it, and the call is refunded. */
    tracked?: TrackedCall;
  },
): Promise<FeatureCallResponse> {
  const { provider } = call;
  checkExtensionBounds(feature, call.files, call.body);

  const audioSeconds = call.files.audio?.[0]?.durationSeconds ?? 0;
  const units = billableUnits(feature, audioSeconds);
  const price = deps.prices.of(feature);
  const unitMicros =
    call.identity && price.identityUnitMicros !== undefined ? price.identityUnitMicros : price.unitMicros;
  const priceMicros = unitMicros * BigInt(units);
  const callType =
    call.identity && feature.callTypes[1]
      ? feature.callTypes[1].callType
      : (feature.callTypes[0]?.callType ?? feature.id);

  const requestId = randomUUID();
  const reference = `request:${requestId}`;
  // Keys are chosen now so the row names its inputs from the start; the files follow the commit.
  const inputKeys = Object.fromEntries(
    Object.entries(call.files).map(([field, list]) => [field, list.map(() => newFileKey(caller))]),
  );
  const reservation = await reserve(
    deps.db,
    { organizationId: caller.organizationId, amountMicros: priceMicros, reference },
    async (tx) => {
      // One statement after the reservation's: the organization's row is locked by the reservation
      // until commit, so the count of calls in flight read here (a later statement, so it sees every
      // call committed while this one waited for the lock) and the insert of this call's row are one
      // step for every process: two calls cannot both take the last slot. The key's spend is charged
      // by one conditional update in the same statement, so concurrent calls of the key cannot
      // overshoot its caps. A refusal throws, and the reservation rolls back with everything else.
      const limit = deps.organizationConcurrentCalls;
      const chargesKey = caller.apiKeyId !== null && hasSpendCap(caller.keyRules);
      const insertRow = tx.insert(featureRequests).values({
        id: requestId,
        organizationId: caller.organizationId,
        projectId: caller.projectId,
        userId: caller.userId,
        apiKeyId: caller.apiKeyId,
        endpoint: feature.endpoint,
        callType,
        status: "generating",
        provider: provider.name,
        requestFiles: inputKeys,
        requestBody: call.body,
        units,
        priceMicros,
        clientIp: caller.clientIp,
      });
      const [row] = rowsOf<{ free: boolean; key_charged: number; budget_reached: boolean }>(
        await tx.execute(sql`with
          ${chargesKey && caller.apiKeyId ? sql`key_charge as ${keySpendCharge(tx, caller.apiKeyId, priceMicros)},` : sql``}
          request as ${insertRow}
          select ${limit > 0 ? sql`${callsInFlightOf(caller.organizationId, inFlightSince(deps))} < ${limit}` : sql`true`} as free,
            ${chargesKey ? sql`(select count(*)::int from key_charge)` : sql`1`} as key_charged,
            ${budgetReached(caller.organizationId)} as budget_reached`),
      );
      if (!row?.free) throw tooManyCalls(limit);
      // Under the organization's lock, so concurrent calls cannot all slip under a hard-stopped budget.
      if (row.budget_reached) throw new AppError("budget-reached", BUDGET_REACHED);
      if (chargesKey && caller.apiKeyId && Number(row.key_charged) === 0) {
        const broken = await keyCapBrokenBy(tx, caller.apiKeyId, priceMicros);
        if (broken) throw spendCapReached(broken);
      }
    },
  );
  if (!reservation.reserved)
    throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);
  call.tracked?.reserved(requestId);

  // The inputs are stored (re-encoded) while the provider works on them, which it
  // does from the validated buffers, not the stored copies: their encoding is off the call's path.
  // The call succeeds only when both have; either failing refunds it.
  const inputsStored = storeInputs(deps, call.files, inputKeys).then(
    () => ({ stored: true as const }),
    (error: unknown) => ({ stored: false as const, error }),
  );
  const requireInputsStored = async () => {
    const inputs = await inputsStored;
    if (inputs.stored) return;
    deps.log.error({ err: inputs.error, requestId }, "could not store the inputs");
    await failRequest(deps.db, requestId, FILES_NOT_STORED_REASON);
    throw new AppError("feature-failed", FILES_NOT_STORED);
  };

  let output: ProviderOutput;
  try {
    output = await provider.run(
      feature,
      { files: call.files, body: call.body, ...(call.identity ? { identity: call.identity } : {}) },
      call.tracked
        ? AbortSignal.any([AbortSignal.timeout(deps.providerTimeoutMs), call.tracked.signal])
        : AbortSignal.timeout(deps.providerTimeoutMs),
    );
  } catch (error) {
    // Writes still running when the call is failed would leave files the row does not explain.
    await inputsStored;
    if (call.tracked?.signal.aborted) {
      // The process is stopping and this call ran past the deadline: refunded now, while we still can.
      await failRequest(deps.db, requestId, CALL_INTERRUPTED_BY_RESTART);
      throw new AppError("service-unavailable", CALL_INTERRUPTED_BY_RESTART, {
        headers: { "retry-after": String(RESTART_RETRY_AFTER_SECONDS) },
      });
    }
    const providerError =
      error instanceof ProviderError ? error : new ProviderError("failed", CALL_NOT_COMPLETED_REASON);
    if (!(error instanceof ProviderError)) deps.log.error({ err: error, requestId }, "provider crashed");
    await failRequest(deps.db, requestId, providerError.message);
    throw toCallError(providerError);
  }
  await requireInputsStored();

  let responseFile: string | null = null;
  let responseBody: FeatureResultBody | null = null;
  let training: { identityId: string; status: IdentityStatus } | undefined;
  try {
    if (feature.asynchronous) {
      training = trainingAnswer(output);
      responseBody = training;
    } else if (output.kind === "image") {
      responseFile = newFileKey(caller);
      await storeImage(deps.files, responseFile, output.data);
    } else {
      responseBody = output.body;
    }
  } catch (error) {
    const message = error instanceof AppError ? error.message : "The result could not be stored.";
    if (!(error instanceof AppError)) deps.log.error({ err: error, requestId }, "could not store the result");
    await failRequest(deps.db, requestId, message);
    throw new AppError("feature-failed", notChargedText(message));
  }

  const day = new Date().toISOString().slice(0, 10);
  // Settle, mark the row done, add to the rollup and read the answer's row and balance: one statement
  // after the reservation's lock. It also says whether the balance is now below an armed auto recharge's
  // threshold (the recharge is looked at only then, not after every call), whether the organization set
  // alerts and which of this call's events an endpoint listens to, so a call that nobody watches sends
  // no more statements.
  const trainingReady = training?.status === "ready" ? training : undefined;
  const [settled] = await settleAlong<Record<string, unknown>>(
    deps.db,
    reference,
    (settlement) => sql`with settled as (${settlement}),
      done as ${deps.db
        .update(featureRequests)
        .set({ status: "done", responseFile, responseBody, completedAt: new Date() })
        .where(eq(featureRequests.id, requestId))
        .returning()},
      usage as ${usageAddition(deps.db, {
        projectId: caller.projectId,
        endpoint: feature.endpoint,
        callType,
        day,
        units,
        costMicros: priceMicros,
      })}
      select done.*, ${organizations.balanceMicros} as answer_balance,
        exists (select 1 from ${autoRechargeSettings} recharge
          where recharge.organization_id = ${organizations.id} and recharge.enabled and recharge.armed
            and recharge.threshold_micros > ${organizations.balanceMicros}) as recharge_due,
        ${alertsConfigured(caller.organizationId)} as alerts_configured,
        ${subscribed(caller.organizationId, "request.succeeded")} as succeeded_subscribed,
        ${trainingReady ? subscribed(caller.organizationId, "training.ready") : sql`false`} as ready_subscribed
      from settled, done, ${organizations}
      where ${organizations.id} = ${caller.organizationId}`,
    async (tx, [row]) => {
      if (row?.succeeded_subscribed === true) {
        await emitEvent(tx, caller.organizationId, "request.succeeded", {
          ...requestEventData({
            id: requestId,
            projectId: caller.projectId,
            endpoint: feature.endpoint,
            apiKeyId: caller.apiKeyId,
          }),
          status: "done",
          cost: microsToUsd(priceMicros),
        });
      }
      if (trainingReady && row?.ready_subscribed === true) {
        await emitEvent(tx, caller.organizationId, "training.ready", {
          request_id: requestId,
          project_id: caller.projectId,
          identity_id: trainingReady.identityId,
        });
      }
      if (row?.alerts_configured === true) await checkSpendAlerts(tx, caller.organizationId);
      if (training && !IDENTITY_FINAL_STATUSES.has(training.status)) {
        await enqueueJob(
          tx,
          TRAINING_POLL_JOB,
          { requestId, identityId: training.identityId },
          new Date(Date.now() + TRAINING_FIRST_POLL_MS),
        );
      }
    },
  );
  if (!settled) {
    // The sweeper took the call for abandoned and refunded it first: it was not charged, so it failed.
    throw new AppError("feature-timeout", errorMessageOf("feature-timeout"));
  }
  if (deps.afterCharge && settled.recharge_due === true) {
    deps
      .afterCharge(caller.organizationId)
      .catch((error: unknown) => deps.log.error({ err: error }, "auto recharge failed"));
  }

  const request = toHistoryRecord(requestRowFrom(settled));
  const balanceMicros = BigInt(settled.answer_balance as string | number | bigint);
  return { balance: microsToUsd(balanceMicros), cost: request.cost, request };
}

/** The identity a model server gave a submitted training; a training it did not name cannot be used. */
function trainingAnswer(output: ProviderOutput): { identityId: string; status: IdentityStatus } {
  const body = (output.kind === "json" ? output.body : {}) as { identityId?: unknown; status?: unknown };
  if (typeof body.identityId !== "string" || body.identityId === "") {
    throw new AppError("feature-failed", TRAINING_NO_IDENTITY);
  }
  const status = identityStatusSchema.safeParse(body.status);
  return { identityId: body.identityId, status: status.success ? status.data : "pending" };
}

/** What every request event says about its call (snake_case, as the public API answers). */
export function requestEventData(row: {
  id: string;
  projectId: string;
  endpoint: string;
  apiKeyId: string | null;
}) {
  return { request_id: row.id, project_id: row.projectId, endpoint: row.endpoint, api_key_id: row.apiKeyId };
}

/** Marks a request failed and gives its reservation back, once; true when this call made the refund. */
export async function failRequest(db: Database, requestId: string, message: string): Promise<boolean> {
  const refunded = await refund(db, `request:${requestId}`, async (tx) => {
    await releaseKeySpend(tx, requestId);
    const [row] = await tx.select().from(featureRequests).where(eq(featureRequests.id, requestId));
    if (row) {
      await emitEvent(tx, row.organizationId, "request.failed", {
        ...requestEventData(row),
        status: "error",
        cost: 0,
        error: message.slice(0, 500),
      });
    }
  });
  await db
    .update(featureRequests)
    .set({ status: "error", errorMessage: message.slice(0, 500), completedAt: new Date() })
    .where(and(eq(featureRequests.id, requestId), eq(featureRequests.status, "generating")));
  return refunded;
}

const ABANDONED_MESSAGE = "The request was interrupted and refunded.";
const SWEEP_BATCH = 500;
const REQUEST_REFERENCE_PREFIX = "request:";

/**
 * Refunds and fails the calls a crashed process abandoned, returning how many it refunded (another
 * process sweeping at the same moment refunds the others; together they count each call once): every request
 * row still `generating` from before `olderThan`, and every call's reservation from before it that has
 * neither a settlement nor a refund, row or no row (`lookBackMs` bounds how far back that ledger scan
 * goes). Safe with several processes: refunds are idempotent and the row update is conditional.
 */
export async function sweepAbandonedRequests(
  db: Database,
  olderThan: Date,
  lookBackMs = 7 * 24 * 3_600_000,
): Promise<number> {
  const staleRows = await db
    .select({ id: featureRequests.id })
    .from(featureRequests)
    .where(and(eq(featureRequests.status, "generating"), sql`${featureRequests.createdAt} < ${olderThan}`))
    .limit(SWEEP_BATCH);
  const openReservations = await db
    .select({ reference: ledgerEntries.reference })
    .from(ledgerEntries)
    .where(
      and(
        eq(ledgerEntries.kind, "reservation"),
        sql`${ledgerEntries.createdAt} < ${olderThan}`,
        sql`${ledgerEntries.createdAt} > ${new Date(olderThan.getTime() - lookBackMs)}`,
        sql`${ledgerEntries.reference} like ${`${REQUEST_REFERENCE_PREFIX}%`}`,
        sql`not exists (select 1 from ${ledgerEntries} closing
          where closing.reference = ${ledgerEntries.reference}
            and closing.kind in ('settlement', 'refund'))`,
      ),
    )
    .limit(SWEEP_BATCH);
  const ids = new Set(staleRows.map((row) => row.id));
  let refunded = 0;
  for (const { reference } of openReservations) {
    const id = reference.slice(REQUEST_REFERENCE_PREFIX.length);
    if (isUuid(id)) ids.add(id);
    else if (await refund(db, reference)) refunded += 1;
  }
  for (const id of ids) {
    if (await failRequest(db, id, ABANDONED_MESSAGE)) refunded += 1;
  }
  return refunded;
}
