import { randomBytes } from "node:crypto";
import {
  CALL_INTERRUPTED_BY_RESTART,
  CALL_NOT_COMPLETED_REASON,
  type Feature,
  type FeatureCallResponse,
  type FeatureResultBody,
  FILES_NOT_STORED_REASON,
  type IdentityStatus,
  identityStatusSchema,
  microsToUsd,
  TRAINING_NO_IDENTITY,
} from "@prism/contract";
import { loadSharp } from "../../providers/images/codecs";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderFile,
  type ProviderOutput,
  type UpstreamUsage,
} from "../../providers/inference/feature-provider";
import type { FileStore } from "../../providers/storage/file-store";
import { checkSpendAlerts } from "../alerts/alerts.service";
import { emitEvent } from "../events/events.service";
import { TRAINING_POLL_JOB } from "../jobs/job-kinds";
import { enqueueJob } from "../jobs/job-queue.store";
import { settleCall } from "../ledger/call-ledger.store";
import { queueCallWebhook } from "../webhooks/call-webhooks";
import type { CallIdentity, GatewayDeps } from "./call-deps";
import { CallCanceled, type RunOutcome, ShutdownAbort } from "./call-dispatcher";
import { type CallFailure, callErrorOf, failCall, failureOf, requestEventData } from "./call-failure";
import { findCallWatchers, findRequestRow, requestRowFrom, toHistoryRecord } from "./feature-requests.store";

/** The first look at a new training's status; later ones follow every TRAINING_POLL_INTERVAL_MS. */
export const TRAINING_FIRST_POLL_MS = 5_000;
export const TRAINING_POLL_INTERVAL_MS = 30_000;
const IDENTITY_FINAL_STATUSES = new Set<IdentityStatus>(["ready", "failed"]);

/**
 * Running a call that has a slot (it was started at once by its reservation, or claimed from the
 * queue): run → store → settle, the last three of reserve → run → store → settle. Whatever ends it —
 * the provider's failure, the timeout, its caller's cancel, a restart — it is settled or refunded
 * exactly once here (call-ledger.store decides by the row's status) and its slot goes back.
 */

/** A call with a slot, ready to run. */
export interface CallRun {
  requestId: string;
  feature: Feature;
  provider: FeatureProvider;
  organizationId: string;
  projectId: string;
  apiKeyId: string | null;
  callType: string;
  units: number;
  priceMicros: bigint;
  files: Record<string, ProviderFile[]>;
  body: Record<string, unknown>;
  identity?: CallIdentity;
  /** Resolves once the inputs are stored (a call started at once stores them while it runs). */
  inputsStored: Promise<Outcome>;
  /** Whether anyone watches the call's end (read with the reservation; read at the end when absent). */
  watch?: Record<string, boolean>;
  /** The call's own webhook, and whether it asked for its start. */
  webhook?: { url: string; events: readonly string[] };
}

/** What a storing promise came to, awaited later without an unhandled rejection in between. */
export type Outcome = { ok: true } | { ok: false; error: unknown };

export function settledOutcome(work: Promise<unknown>): Promise<Outcome> {
  return work.then(
    () => ({ ok: true }),
    (error: unknown) => ({ ok: false, error }),
  );
}

/** The stored result of a call: a file, or a JSON body (a transcription, a training's identity). */
interface StoredResult {
  responseFile: string | null;
  responseBody: FeatureResultBody | null;
  training?: { identityId: string; status: IdentityStatus };
  /** What the upstream platform reported it cost or took (kept for the operator, never shown). */
  upstream?: UpstreamUsage;
}

class CallFailed extends Error {
  constructor(readonly failure: CallFailure) {
    super(failure.reason);
  }
}

export function newFileKey(owner: { organizationId: string; projectId: string }): string {
  return `${owner.organizationId}/${owner.projectId}/${randomBytes(18).toString("base64url")}`;
}

/**
 * Stores an image re-encoded by sharp, upright (EXIF orientation applied, metadata dropped): whatever
 * was smuggled in an upload's container or a model server's answer (trailing bytes, polyglot payloads)
 * does not survive. Results and lossless inputs are kept as PNG; JPEG inputs (training photos, photos to
 * edit) stay JPEG at high quality, since a PNG of a photo is several times larger and no better. An
 * image this server's own engine just encoded is stored as it is (see ProviderOutput.encodedHere). Its
 * thumbnail is made when it is first asked for (files/thumbnails.ts), off the call's path.
 */
export async function storeImage(
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

/**
 * Runs a call to its end and answers how it ended: the feature call's answer (balance, cost, record),
 * or the error its caller gets. Never throws.
 */
export async function runCall(
  deps: GatewayDeps,
  call: CallRun,
  signal: AbortSignal,
): Promise<RunOutcome<FeatureCallResponse>> {
  try {
    await announceStart(deps, call);
    const output = await runProvider(deps, call, signal);
    const result = await storeResult(deps, call, output);
    const { response, queueWaiting } = await settleRun(deps, call, result);
    return { ok: true, value: response, queueWaiting };
  } catch (error) {
    // Writes still running when the call is failed would leave files the row does not explain.
    await call.inputsStored;
    const failure = error instanceof CallFailed ? error.failure : unexpectedFailure(deps, call, error);
    await failCall(deps.db, call.requestId, failure, { releaseSlot: true });
    return { ok: false, error: callErrorOf(failure) };
  }
}

function unexpectedFailure(deps: GatewayDeps, call: CallRun, error: unknown): CallFailure {
  deps.log.error({ err: error, requestId: call.requestId }, "a feature call failed unexpectedly");
  return { code: "feature-failed", reason: CALL_NOT_COMPLETED_REASON };
}

/** The call's `start` webhook, when it asked for one (its row says it is running now). */
async function announceStart(deps: GatewayDeps, call: CallRun): Promise<void> {
  if (!call.webhook?.events.includes("start")) return;
  await deps.db.transaction((tx) =>
    queueCallWebhook(
      tx,
      {
        id: call.requestId,
        webhookUrl: call.webhook?.url ?? null,
        webhookEvents: [...(call.webhook?.events ?? [])],
      },
      "start",
    ),
  );
}

/** Step one: the provider, within the call's timeout, stopped by a cancel or a restart. */
async function runProvider(deps: GatewayDeps, call: CallRun, signal: AbortSignal): Promise<ProviderOutput> {
  try {
    return await call.provider.run(
      call.feature,
      {
        files: call.files,
        body: call.body,
        callId: call.requestId,
        ...(call.identity ? { identity: call.identity } : {}),
      },
      AbortSignal.any([AbortSignal.timeout(deps.providerTimeoutMs), signal]),
    );
  } catch (error) {
    if (signal.aborted && signal.reason instanceof CallCanceled) {
      throw new CallFailed({ code: "request-canceled", reason: signal.reason.message });
    }
    if (signal.aborted && signal.reason instanceof ShutdownAbort) {
      // The process is stopping and this call ran past the deadline: refunded now, while we still can.
      throw new CallFailed({ code: "service-unavailable", reason: CALL_INTERRUPTED_BY_RESTART });
    }
    if (!(error instanceof ProviderError)) {
      deps.log.error({ err: error, requestId: call.requestId }, "provider crashed");
    }
    throw new CallFailed(failureOf(error, CALL_NOT_COMPLETED_REASON));
  }
}

/** Step two: the result stored (an image re-encoded), and the inputs' storing awaited. */
async function storeResult(deps: GatewayDeps, call: CallRun, output: ProviderOutput): Promise<StoredResult> {
  let result: StoredResult = { responseFile: null, responseBody: null };
  const upstream = output.upstream ? { upstream: output.upstream } : {};
  let resultStored: Promise<Outcome> = Promise.resolve({ ok: true });
  try {
    if (call.feature.asynchronous) {
      const training = trainingAnswer(output);
      result = { responseFile: null, responseBody: training, training, ...upstream };
    } else if (output.kind === "image") {
      const responseFile = newFileKey(call);
      result = { responseFile, responseBody: null, ...upstream };
      resultStored = settledOutcome(
        storeImage(deps.files, responseFile, output.data, { encodedHere: output.encodedHere === true }),
      );
    } else {
      result = { responseFile: null, responseBody: output.body, ...upstream };
    }
  } catch (error) {
    throw new CallFailed({
      code: "feature-failed",
      reason: error instanceof CallFailed ? error.failure.reason : "The result could not be stored.",
    });
  }
  const stored = await resultStored;
  const inputs = await call.inputsStored;
  if (!inputs.ok) {
    deps.log.error({ err: inputs.error, requestId: call.requestId }, "could not store the inputs");
    // The call failed on its inputs: the result stored beside them would be a file no row names.
    if (result.responseFile && stored.ok) await deps.files.delete(result.responseFile).catch(() => undefined);
    throw new CallFailed({ code: "feature-failed", reason: FILES_NOT_STORED_REASON });
  }
  if (!stored.ok) {
    deps.log.error({ err: stored.error, requestId: call.requestId }, "could not store the result");
    throw new CallFailed({ code: "feature-failed", reason: "The result could not be stored." });
  }
  return result;
}

/** The identity a model server gave a submitted training; a training it did not name cannot be used. */
function trainingAnswer(output: ProviderOutput): { identityId: string; status: IdentityStatus } {
  const body = (output.kind === "json" ? output.body : {}) as { identityId?: unknown; status?: unknown };
  if (typeof body.identityId !== "string" || body.identityId === "") {
    throw new CallFailed({ code: "feature-failed", reason: TRAINING_NO_IDENTITY });
  }
  const status = identityStatusSchema.safeParse(body.status);
  return { identityId: body.identityId, status: status.success ? status.data : "pending" };
}

/**
 * Step three: the settlement, in one statement when nobody watches the call's end, or in a transaction
 * with its events, alerts, webhook and a training's follow-up when someone does.
 */
async function settleRun(
  deps: GatewayDeps,
  call: CallRun,
  result: StoredResult,
): Promise<{ response: FeatureCallResponse; queueWaiting: boolean }> {
  const completedAt = new Date();
  const { training } = result;
  const trainingReady = training?.status === "ready" ? training : undefined;
  const watching =
    call.watch ?? (await findCallWatchers(deps.db, call.organizationId, call.feature.asynchronous));
  const needsFollowUp = training !== undefined && !IDENTITY_FINAL_STATUSES.has(training.status);
  const settleWatched =
    watching.alerts === true ||
    watching.succeeded === true ||
    (trainingReady !== undefined && watching.ready === true) ||
    needsFollowUp ||
    call.webhook?.events.includes("completed") === true;
  const settled = await settleCall(
    deps.db,
    {
      requestId: call.requestId,
      organizationId: call.organizationId,
      responseFile: result.responseFile,
      responseBody: result.responseBody,
      completedAt,
      ...(result.upstream ? { upstream: result.upstream } : {}),
      usage: {
        projectId: call.projectId,
        endpoint: call.feature.endpoint,
        callType: call.callType,
        units: call.units,
        costMicros: call.priceMicros,
      },
    },
    settleWatched
      ? async (tx, row) => {
          if (watching.succeeded === true) {
            await emitEvent(tx, call.organizationId, "request.succeeded", {
              ...requestEventData({
                id: call.requestId,
                projectId: call.projectId,
                endpoint: call.feature.endpoint,
                apiKeyId: call.apiKeyId,
              }),
              status: "done",
              cost: microsToUsd(call.priceMicros),
            });
          }
          if (trainingReady && watching.ready === true) {
            await emitEvent(tx, call.organizationId, "training.ready", {
              request_id: call.requestId,
              project_id: call.projectId,
              identity_id: trainingReady.identityId,
            });
          }
          if (watching.alerts === true) await checkSpendAlerts(tx, call.organizationId);
          if (training && needsFollowUp) {
            await enqueueJob(
              tx,
              TRAINING_POLL_JOB,
              { requestId: call.requestId, identityId: training.identityId },
              new Date(Date.now() + TRAINING_FIRST_POLL_MS),
            );
          }
          await queueCallWebhook(tx, requestRowFrom(row), "completed");
        }
      : undefined,
  );
  if (!settled) {
    // Ended first by someone else (its caller canceled it, or the sweeper took it for abandoned and
    // refunded it): it was not charged, and its result is a file no row names.
    if (result.responseFile) await deps.files.delete(result.responseFile).catch(() => undefined);
    const row = await findRequestRow(deps.db, call.requestId);
    throw new CallFailed(
      row?.status === "canceled"
        ? { code: "request-canceled", reason: row.errorMessage ?? "" }
        : { code: "feature-timeout", reason: row?.errorMessage ?? "" },
    );
  }
  if (deps.afterCharge && settled.recharge_due === true) {
    deps
      .afterCharge(call.organizationId)
      .catch((error: unknown) => deps.log.error({ err: error }, "auto recharge failed"));
  }
  const request = toHistoryRecord(requestRowFrom(settled));
  const balanceMicros = BigInt(settled.answer_balance as string | number | bigint);
  return {
    response: { balance: microsToUsd(balanceMicros), cost: request.cost, request },
    queueWaiting: settled.queue_waiting === true,
  };
}
