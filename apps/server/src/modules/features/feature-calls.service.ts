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
import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client";
import { AppError } from "../../errors";
import { loadSharp } from "../../providers/images/codecs";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderOutput,
} from "../../providers/inference/feature-provider";
import type { ProviderRegistry } from "../../providers/inference/registry";
import type { FileStore } from "../../providers/storage/file-store";
import { isUuid, NOT_FOUND_ORGANIZATION } from "../access/access.service";
import { checkSpendAlerts } from "../alerts/alerts.service";
import { alertsConfigured, budgetReached } from "../alerts/alerts.store";
import {
  type ApiKeyRules,
  type BrokenCap,
  capBrokenBy,
  type KeyOrganizationState,
  keyCapBrokenBy,
} from "../api-keys/api-keys.service";
import { keySpendCharge, releaseKeySpend } from "../api-keys/api-keys.store";
import { emitEvent } from "../events/events.service";
import { subscribed } from "../events/events.store";
import { TRAINING_POLL_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";
import { cachedBalance, refund } from "../ledger/ledger.service";
import { findOpenCallReservations } from "../ledger/ledger.store";
import { refundCall, refusalOf, reserveCall, settleCall } from "./call-ledger.store";
import {
  findAdmissionState,
  findFinishedTraining,
  findRequestRow,
  findStaleGenerating,
  requestRowFrom,
  toHistoryRecord,
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
  /** The organization's money state when it was read with the caller's key (no query to admit it). */
  organizationState?: KeyOrganizationState;
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
 * was smuggled in an upload's container or a model server's answer (trailing bytes, polyglot payloads)
 * does not survive. Results and lossless inputs are kept as PNG; JPEG inputs (training photos, photos to
 * edit) stay JPEG at high quality, since a PNG of a photo is several times larger and no better. An
 * image this server's own engine just encoded is stored as it is (see ProviderOutput.encodedHere). Its
 * thumbnail is made when it is first asked for (files/thumbnails.ts), off the call's path.
 */
async function storeImage(
  store: FileStore,
  key: string,
  image: Buffer,
  options: { format?: "png" | "jpeg"; encodedHere?: boolean } = {},
): Promise<void> {
  if (options.encodedHere) {
    await store.put(key, image, "image/png");
    return;
  }
  const sharp = await loadSharp();
  const pipeline = sharp(image, { limitInputPixels: false }).rotate();
  const full =
    options.format === "jpeg"
      ? await pipeline.jpeg({ quality: 95 }).toBuffer()
      : await pipeline.png().toBuffer();
  await store.put(key, full, options.format === "jpeg" ? "image/jpeg" : "image/png");
}

/** What a storing promise came to, awaited later without an unhandled rejection in between. */
type Outcome = { ok: true } | { ok: false; error: unknown };

function settledOutcome(work: Promise<unknown>): Promise<Outcome> {
  return work.then(
    () => ({ ok: true }),
    (error: unknown) => ({ ok: false, error }),
  );
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
        await storeImage(deps.files, key, file.buffer, {
          format: file.mimeType === "image/jpeg" ? "jpeg" : "png",
        });
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
 * query, none when the organization's state came with the caller's key): a locked feature (training before the first deposit), the organization's calls in flight,
 * and a balance below the least the call can cost all refuse it here, so a caller who cannot pay
 * never gets a byte of the upload buffered. The reservation made later is the exact price and is the
 * check that counts; this one only refuses early.
 */
export async function admitFeatureCall(
  deps: GatewayDeps,
  caller: FeatureCaller,
  feature: Feature,
): Promise<void> {
  const organization = caller.organizationState ?? (await findAdmissionState(deps.db, caller.organizationId));
  if (!organization) throw new AppError("not-found", NOT_FOUND_ORGANIZATION);
  if (feature.requiresFirstDeposit && organization.isNew) {
    throw new AppError("first-deposit-required", errorMessageOf("first-deposit-required"));
  }
  const limit = deps.organizationConcurrentCalls;
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
  // Keys are chosen now so the row names its inputs from the start; the files follow the reservation.
  const inputKeys = Object.fromEntries(
    Object.entries(call.files).map(([field, list]) => [field, list.map(() => newFileKey(caller))]),
  );
  const chargesKey = caller.apiKeyId !== null && hasSpendCap(caller.keyRules);
  const trainingPending = feature.asynchronous;
  let reservation: Awaited<ReturnType<typeof reserveCall>>;
  try {
    reservation = await reserveCall(deps.db, {
      organizationId: caller.organizationId,
      priceMicros,
      reference,
      concurrentLimit: deps.organizationConcurrentCalls,
      budgetReached: budgetReached(caller.organizationId),
      ...(chargesKey && caller.apiKeyId
        ? { keyCharge: keySpendCharge(deps.db, caller.apiKeyId, priceMicros) }
        : {}),
      request: {
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
      },
      // Whether anyone watches this call's end, read with the reservation: a call nobody watches is
      // settled in one statement, one that someone does in a transaction with its events and alerts.
      watch: {
        alerts: alertsConfigured(caller.organizationId),
        succeeded: subscribed(caller.organizationId, "request.succeeded"),
        ...(trainingPending ? { ready: subscribed(caller.organizationId, "training.ready") } : {}),
      },
    });
  } catch (error) {
    if (refusalOf(error) !== "key-spend-cap-reached" || !caller.apiKeyId) throw error;
    const broken = await keyCapBrokenBy(deps.db, caller.apiKeyId, priceMicros);
    if (broken) throw spendCapReached(broken);
    // The cap was raised between the refusal and this read: the caller may simply try again.
    throw tooManyCalls(deps.organizationConcurrentCalls);
  }
  if (!reservation.reserved) {
    if (reservation.refusal === "too-many-calls") throw tooManyCalls(deps.organizationConcurrentCalls);
    if (reservation.refusal === "budget-reached") throw new AppError("budget-reached", BUDGET_REACHED);
    throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);
  }
  call.tracked?.reserved(requestId);

  // The inputs are stored (re-encoded) while the provider works on them, which it does from the
  // validated buffers, not the stored copies, and while the result is stored: their encoding is off the
  // call's path. The call succeeds only when all have; any failing refunds it.
  const inputsStored = settledOutcome(storeInputs(deps, call.files, inputKeys));
  const requireInputsStored = async () => {
    const inputs = await inputsStored;
    if (inputs.ok) return;
    deps.log.error({ err: inputs.error, requestId }, "could not store the inputs");
    await failRequest(deps.db, requestId, FILES_NOT_STORED_REASON);
    throw new AppError("feature-failed", FILES_NOT_STORED);
  };

  let output: ProviderOutput;
  try {
    output = await provider.run(
      feature,
      {
        files: call.files,
        body: call.body,
        callId: requestId,
        ...(call.identity ? { identity: call.identity } : {}),
      },
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

  let responseFile: string | null = null;
  let responseBody: FeatureResultBody | null = null;
  let training: { identityId: string; status: IdentityStatus } | undefined;
  let resultStored: Promise<Outcome> = Promise.resolve({ ok: true });
  try {
    if (feature.asynchronous) {
      training = trainingAnswer(output);
      responseBody = training;
    } else if (output.kind === "image") {
      responseFile = newFileKey(caller);
      resultStored = settledOutcome(
        storeImage(deps.files, responseFile, output.data, { encodedHere: output.encodedHere === true }),
      );
    } else {
      responseBody = output.body;
    }
  } catch (error) {
    await inputsStored;
    const message = error instanceof AppError ? error.message : "The result could not be stored.";
    await failRequest(deps.db, requestId, message);
    throw new AppError("feature-failed", notChargedText(message));
  }
  const result = await resultStored;
  try {
    await requireInputsStored();
  } catch (error) {
    // The call failed on its inputs: the result stored beside them would be a file no row names.
    if (responseFile && result.ok) await deps.files.delete(responseFile).catch(() => undefined);
    throw error;
  }
  if (!result.ok) {
    const message =
      result.error instanceof AppError ? result.error.message : "The result could not be stored.";
    if (!(result.error instanceof AppError)) {
      deps.log.error({ err: result.error, requestId }, "could not store the result");
    }
    await failRequest(deps.db, requestId, message);
    throw new AppError("feature-failed", notChargedText(message));
  }

  const completedAt = new Date();
  const trainingReady = training?.status === "ready" ? training : undefined;
  const watching = reservation.watch;
  const needsFollowUp = training !== undefined && !IDENTITY_FINAL_STATUSES.has(training.status);
  const settleWatched =
    watching.alerts === true ||
    watching.succeeded === true ||
    (trainingReady !== undefined && watching.ready === true) ||
    needsFollowUp;
  const settled = await settleCall(
    deps.db,
    {
      requestId,
      reference,
      organizationId: caller.organizationId,
      responseFile,
      responseBody,
      completedAt,
      ...(output.upstream ? { upstream: output.upstream } : {}),
      usage: {
        projectId: caller.projectId,
        endpoint: feature.endpoint,
        callType,
        day: completedAt.toISOString().slice(0, 10),
        units,
        costMicros: priceMicros,
      },
    },
    settleWatched
      ? async (tx) => {
          if (watching.succeeded === true) {
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
          if (trainingReady && watching.ready === true) {
            await emitEvent(tx, caller.organizationId, "training.ready", {
              request_id: requestId,
              project_id: caller.projectId,
              identity_id: trainingReady.identityId,
            });
          }
          if (watching.alerts === true) await checkSpendAlerts(tx, caller.organizationId);
          if (training && needsFollowUp) {
            await enqueueJob(
              tx,
              TRAINING_POLL_JOB,
              { requestId, identityId: training.identityId },
              new Date(Date.now() + TRAINING_FIRST_POLL_MS),
            );
          }
        }
      : undefined,
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
  const errorMessage = message.slice(0, 500);
  return refundCall(
    db,
    { requestId, reference: `request:${requestId}`, message: errorMessage, completedAt: new Date() },
    async (tx) => {
      await releaseKeySpend(tx, requestId);
      const row = await findRequestRow(tx, requestId);
      if (row) {
        await emitEvent(tx, row.organizationId, "request.failed", {
          ...requestEventData(row),
          status: "error",
          cost: 0,
          error: errorMessage,
        });
      }
    },
  );
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
  const staleRows = await findStaleGenerating(db, olderThan, SWEEP_BATCH);
  const openReservations = await findOpenCallReservations(db, {
    olderThan,
    newerThan: new Date(olderThan.getTime() - lookBackMs),
    referencePrefix: REQUEST_REFERENCE_PREFIX,
    limit: SWEEP_BATCH,
  });
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
