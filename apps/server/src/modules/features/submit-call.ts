import { randomUUID } from "node:crypto";
import {
  BUDGET_REACHED,
  ERROR_DIALOGS,
  type FeatureCallResponse,
  FILES_NOT_STORED_REASON,
  featureByEndpoint,
} from "@prism/contract";
import { AppError } from "../../errors";
import type { ProviderFile } from "../../providers/inference/feature-provider";
import { alertsConfigured, budgetReached } from "../alerts/alerts.store";
import { keyCapBrokenBy } from "../api-keys/api-key-runtime.service";
import { keySpendCharge } from "../api-keys/api-keys.store";
import { subscribed } from "../events/events.store";
import { refusalOf, reserveCall } from "../ledger/call-ledger.store";
import { type AdmittedCall, hasSpendCap, spendCapReached, tooManyCalls } from "./admit-call";
import type { GatewayDeps } from "./call-deps";
import type { RunOutcome } from "./call-dispatcher";
import { failCall } from "./call-failure";
import { type ClaimedCallRow, markQueuedCallReady, takeFreeSlotFor } from "./call-queue.store";
import { requestRowFrom } from "./feature-requests.store";
import { newFileKey, runCall, settledOutcome, storeImage } from "./run-call";
import type { ValidatedFile } from "./uploads";

/**
 * Submission: the call's price reserved and its row written in one statement (reserve), which also
 * starts it at once when its provider has a free slot and nobody waits (the common case: no queue
 * round trip); otherwise the call waits in the queue, its inputs stored first so that any process can
 * run it.
 */

export interface SubmittedCall {
  call: AdmittedCall;
  requestId: string;
  /** The run of a call this process started at once (its caller may wait on it directly). */
  run?: Promise<RunOutcome<FeatureCallResponse>>;
}

/** Stores each input under the key the request row already names (images re-encoded, see storeImage). */
async function storeInputs(
  deps: GatewayDeps,
  files: Record<string, ValidatedFile[]>,
  keys: Record<string, string[]>,
): Promise<void> {
  const writes: Promise<void>[] = [];
  for (const [field, list] of Object.entries(files)) {
    for (const [index, file] of list.entries()) {
      const key = keys[field]?.[index];
      if (!key) throw new Error(`no key for input ${field}[${index}]`);
      writes.push(
        file.mimeType.startsWith("image/")
          ? storeImage(deps.files, key, file.buffer, {
              format: file.mimeType === "image/jpeg" ? "jpeg" : "png",
            })
          : deps.files.put(key, file.buffer, file.mimeType),
      );
    }
  }
  await Promise.all(writes);
}

export async function submitCall(deps: GatewayDeps, call: AdmittedCall): Promise<SubmittedCall> {
  const { caller, feature, provider, priceMicros } = call;
  const requestId = randomUUID();
  // Keys are chosen now so the row names its inputs from the start; the files follow the reservation.
  const inputKeys = Object.fromEntries(
    Object.entries(call.files).map(([field, list]) => [field, list.map(() => newFileKey(caller))]),
  );
  const chargesKey = caller.apiKeyId !== null && hasSpendCap(caller.keyRules);
  const pool = deps.dispatcher.poolOf(provider);
  const runner = deps.dispatcher.instanceId;
  const leaseUntil = deps.dispatcher.leaseUntil();
  let reservation: Awaited<ReturnType<typeof reserveCall>>;
  try {
    reservation = await reserveCall(deps.db, {
      organizationId: caller.organizationId,
      priceMicros,
      requestId,
      concurrentLimit: deps.organizationQueuedCalls,
      budgetReached: budgetReached(caller.organizationId),
      ...(chargesKey && caller.apiKeyId
        ? { keyCharge: keySpendCharge(deps.db, caller.apiKeyId, priceMicros) }
        : {}),
      request: {
        organizationId: caller.organizationId,
        projectId: caller.projectId,
        userId: caller.userId,
        apiKeyId: caller.apiKeyId,
        endpoint: feature.endpoint,
        callType: call.callType,
        provider: provider.name,
        queue: pool.name,
        requestFiles: inputKeys,
        requestBody: call.body,
        identityRequestId: call.identity?.requestId ?? null,
        units: call.units,
        priceMicros,
        clientIp: caller.clientIp,
        webhookUrl: call.webhook?.url ?? null,
        webhookEvents: call.webhook ? [...call.webhook.events] : null,
      },
      start: {
        takeSlot: (debited) =>
          takeFreeSlotFor(requestId, { pool: pool.name, owner: pool.owner, runner, leaseUntil }, debited),
        runner,
        leaseUntil,
      },
      // Whether anyone watches this call's end, read with the reservation: a call nobody watches is
      // settled in one statement, one that someone does in a transaction with its events and alerts.
      watch: {
        alerts: alertsConfigured(caller.organizationId),
        succeeded: subscribed(caller.organizationId, "request.succeeded"),
        ...(feature.asynchronous ? { ready: subscribed(caller.organizationId, "training.ready") } : {}),
      },
    });
  } catch (error) {
    if (refusalOf(error) !== "key-spend-cap-reached" || !caller.apiKeyId) throw error;
    const broken = await keyCapBrokenBy(deps.db, caller.apiKeyId, priceMicros);
    if (broken) throw spendCapReached(broken);
    // The cap was raised between the refusal and this read: the caller may simply try again.
    throw tooManyCalls(deps.organizationQueuedCalls);
  }
  if (!reservation.reserved) {
    if (reservation.refusal === "too-many-calls") throw tooManyCalls(deps.organizationQueuedCalls);
    if (reservation.refusal === "budget-reached") throw new AppError("budget-reached", BUDGET_REACHED);
    throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);
  }
  call.tracked?.reserved(requestId);

  if (reservation.started) {
    // The inputs are stored (re-encoded) while the provider works on them, which it does from the
    // validated buffers, not the stored copies: their encoding is off the call's path.
    const inputsStored = settledOutcome(storeInputs(deps, call.files, inputKeys));
    const run = deps.dispatcher.track(
      requestId,
      (signal) =>
        runCall(
          deps,
          {
            requestId,
            feature,
            provider,
            organizationId: caller.organizationId,
            projectId: caller.projectId,
            apiKeyId: caller.apiKeyId,
            callType: call.callType,
            units: call.units,
            priceMicros,
            files: call.files,
            body: call.body,
            ...(call.identity ? { identity: call.identity } : {}),
            inputsStored,
            watch: reservation.watch,
            ...(call.webhook ? { webhook: call.webhook } : {}),
          },
          signal,
        ),
      { notifyEnd: false, pool: pool.name },
    );
    return { call, requestId, run };
  }

  // Queued: any process may run it, so its inputs must be in the file store before anyone can claim it.
  try {
    await storeInputs(deps, call.files, inputKeys);
  } catch (error) {
    deps.log.error({ err: error, requestId }, "could not store the inputs");
    await failCall(
      deps.db,
      requestId,
      { code: "feature-failed", reason: FILES_NOT_STORED_REASON },
      { releaseSlot: false },
    );
    throw new AppError("feature-failed", `${FILES_NOT_STORED_REASON} You were not charged for it.`);
  }
  await markQueuedCallReady(deps.db, { requestId, pool: pool.name, organizationId: caller.organizationId });
  deps.dispatcher.pump(pool.name);
  return { call, requestId };
}

/**
 * A call claimed from the queue as a run: its provider from the registry as configured now, its inputs
 * read back from the file store (they were stored before it could be claimed).
 */
export async function runClaimedCall(
  deps: GatewayDeps,
  raw: ClaimedCallRow,
  signal: AbortSignal,
): Promise<RunOutcome<FeatureCallResponse>> {
  const row = requestRowFrom(raw);
  const feature = featureByEndpoint(row.endpoint);
  const provider = feature ? deps.registry.providerFor(feature) : undefined;
  if (!feature || !provider) {
    await failCall(
      deps.db,
      row.id,
      { code: "feature-unavailable", reason: "No provider serves this feature any more." },
      { releaseSlot: true },
    );
    return {
      ok: false,
      error: new AppError("feature-unavailable", "No provider serves this feature any more."),
    };
  }
  const files: Record<string, ProviderFile[]> = {};
  try {
    for (const [field, keys] of Object.entries(row.requestFiles)) {
      files[field] = [];
      for (const key of keys) {
        const stored = await deps.files.get(key);
        if (!stored) throw new Error(`input ${key} is missing from the file store`);
        const extension =
          stored.contentType.split("/")[1]?.replace("jpeg", "jpg").replace("mpeg", "mp3") ?? "bin";
        files[field]?.push({
          buffer: stored.data,
          mimeType: stored.contentType,
          filename: `${field}.${extension}`,
        });
      }
    }
  } catch (error) {
    deps.log.error({ err: error, requestId: row.id }, "could not read a queued call's inputs");
    await failCall(
      deps.db,
      row.id,
      { code: "feature-failed", reason: FILES_NOT_STORED_REASON },
      { releaseSlot: true },
    );
    return { ok: false, error: new AppError("feature-failed", FILES_NOT_STORED_REASON) };
  }
  const identityId =
    typeof row.requestBody.identity_id === "string" ? row.requestBody.identity_id : undefined;
  return runCall(
    deps,
    {
      requestId: row.id,
      feature,
      provider,
      organizationId: row.organizationId,
      projectId: row.projectId,
      apiKeyId: row.apiKeyId,
      callType: row.callType,
      units: row.units,
      priceMicros: row.priceMicros,
      files,
      body: row.requestBody,
      ...(identityId && row.identityRequestId
        ? { identity: { identityId, requestId: row.identityRequestId } }
        : {}),
      inputsStored: Promise.resolve({ ok: true }),
      ...(row.webhookUrl ? { webhook: { url: row.webhookUrl, events: row.webhookEvents ?? [] } } : {}),
    },
    signal,
  );
}
