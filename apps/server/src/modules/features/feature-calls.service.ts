import { randomBytes, randomUUID } from "node:crypto";
import {
  AI_CLONE_NOT_FOUND,
  AI_CLONE_NOT_READY,
  billableUnits,
  ERROR_DIALOGS,
  ERROR_MESSAGES,
  FEATURES,
  type Feature,
  type FeatureCallResponse,
  IDENTITY_REQUEST_HEADER,
  MAX_EXTENSION_SIDE,
  microsToUsd,
  THUMBNAIL_SUFFIX,
} from "@prism/contract";
import { and, eq, notInArray, sql } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import sharp from "sharp";
import type { Database } from "../../db/client";
import { featureRequests, organizations } from "../../db/schema";
import { AppError } from "../../errors";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderOutput,
} from "../../providers/inference/feature-provider";
import type { ProviderRegistry } from "../../providers/inference/registry";
import type { FileStore } from "../../providers/storage/file-store";
import { isUuid } from "../access/access.service";
import { enqueueJob } from "../jobs/job-queue";
import { refund, reserve, settle } from "../ledger/ledger.service";
import { addUsage, findFinishedTraining, toHistoryRecord } from "./feature-requests.store";

export const TRAINING_SUBMIT_JOB = "training-submit";
export const TRAINING_POLL_JOB = "training-poll";
const ASYNCHRONOUS_ENDPOINTS = FEATURES.filter((feature) => feature.asynchronous).map(
  (feature) => feature.endpoint,
);

import type { PriceBook } from "./prices";
import type { ValidatedFile } from "./uploads";

export interface FeatureCaller {
  organizationId: string;
  projectId: string;
  userId: string | null;
  apiKeyId: string | null;
}

export interface GatewayDeps {
  db: Database;
  files: FileStore;
  registry: ProviderRegistry;
  prices: PriceBook;
  providerTimeoutMs: number;
  log: FastifyBaseLogger;
  /** Called after every settled charge (auto recharge), not awaited by the response. */
  afterCharge?: (organizationId: string) => Promise<unknown>;
}

const THUMBNAIL_BOX = 320;

function newFileKey(caller: FeatureCaller): string {
  return `${caller.organizationId}/${caller.projectId}/${randomBytes(18).toString("base64url")}`;
}

/**
 * Stores an uploaded image re-encoded by sharp: whatever was smuggled in its container (metadata,
 * trailing bytes, polyglot payloads) does not survive. Its thumbnail is stored beside it.
 */
/**
 * Stores an image upright (EXIF orientation applied, metadata dropped) with its WebP thumbnail. Results
 * and lossless inputs are kept as PNG; JPEG inputs (training photos, photos to edit) stay JPEG at high
 * quality, since a PNG of a photo is several times larger and no better.
 */
async function storeImage(
  store: FileStore,
  key: string,
  image: Buffer,
  format: "png" | "jpeg" = "png",
): Promise<void> {
  const pipeline = sharp(image, { limitInputPixels: false }).rotate();
  const [full, thumb] = await Promise.all([
    format === "jpeg" ? pipeline.clone().jpeg({ quality: 95 }).toBuffer() : pipeline.clone().png().toBuffer(),
    pipeline
      .clone()
      .resize(THUMBNAIL_BOX, THUMBNAIL_BOX, { fit: "inside", withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer(),
  ]);
  await Promise.all([
    store.put(key, full, format === "jpeg" ? "image/jpeg" : "image/png"),
    store.put(`${key}${THUMBNAIL_SUFFIX}`, thumb, "image/webp"),
  ]);
}

async function storeInputs(deps: GatewayDeps, caller: FeatureCaller, files: Record<string, ValidatedFile[]>) {
  const stored: Record<string, string[]> = {};
  for (const [field, list] of Object.entries(files)) {
    stored[field] = [];
    for (const file of list) {
      const key = newFileKey(caller);
      if (file.mimeType.startsWith("image/")) {
        await storeImage(deps.files, key, file.buffer, file.mimeType === "image/jpeg" ? "jpeg" : "png");
      } else await deps.files.put(key, file.buffer, file.mimeType);
      stored[field].push(key);
    }
  }
  return stored;
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
    throw new AppError("invalid-input", "Extend at least one side.");
  }
}

function toCallError(error: ProviderError): AppError {
  if (error.code === "invalid-input") return new AppError("unprocessable-input", error.message);
  if (error.code === "timeout")
    return new AppError(
      "feature-timeout",
      "The request took too long and was stopped. You were not charged for it.",
    );
  if (error.code === "unavailable") return new AppError("feature-unavailable", error.message);
  return new AppError("feature-failed", `${error.message} You were not charged for it.`);
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
  const result = (training?.responseBody ?? {}) as { identityId?: unknown; status?: unknown };
  if (!training || result.identityId !== identityId) throw new AppError("not-found", AI_CLONE_NOT_FOUND);
  if (result.status !== "ready") throw new AppError("identity-not-ready", AI_CLONE_NOT_READY);
  return { identityId, requestId };
}

/**
 * One feature call, the same for the playground and the public API (DESIGN.md §5): availability and
 * validation (done by the caller, before any upload is stored) → price reservation (402 when short) → inputs stored → request row
 * `generating` → provider with a timeout → result stored → settle with the usage rollup, or refund.
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

  if (feature.requiresFirstDeposit) {
    const [organization] = await deps.db
      .select({ isNew: organizations.isNew })
      .from(organizations)
      .where(eq(organizations.id, caller.organizationId));
    if (organization?.isNew)
      throw new AppError("first-deposit-required", ERROR_MESSAGES["first-deposit-required"]);
  }

  const requestId = randomUUID();
  const reference = `request:${requestId}`;
  const reservation = await reserve(deps.db, {
    organizationId: caller.organizationId,
    amountMicros: priceMicros,
    reference,
  });
  if (!reservation.reserved)
    throw new AppError("insufficient-balance", ERROR_DIALOGS.insufficientBalance.message);

  let requestFiles: Record<string, string[]>;
  try {
    requestFiles = await storeInputs(deps, caller, call.files);
    const row = {
      id: requestId,
      organizationId: caller.organizationId,
      projectId: caller.projectId,
      userId: caller.userId,
      apiKeyId: caller.apiKeyId,
      endpoint: feature.endpoint,
      callType,
      status: "generating",
      provider: provider.name,
      requestFiles,
      requestBody: call.body,
      units,
      priceMicros,
    } as const;
    // An asynchronous feature (training) is queued in the same transaction as its request row.
    await deps.db.transaction(async (tx) => {
      await tx.insert(featureRequests).values(row);
      if (feature.asynchronous) await enqueueJob(tx, TRAINING_SUBMIT_JOB, { requestId });
    });
  } catch (error) {
    await refund(deps.db, reference);
    throw error;
  }

  if (feature.asynchronous) return answer(deps, caller, requestId);

  let output: ProviderOutput;
  try {
    output = await provider.run(
      feature,
      { files: call.files, body: call.body, ...(call.identity ? { identity: call.identity } : {}) },
      AbortSignal.timeout(deps.providerTimeoutMs),
    );
  } catch (error) {
    const providerError =
      error instanceof ProviderError
        ? error
        : new ProviderError("failed", "The request could not be completed.");
    if (!(error instanceof ProviderError)) deps.log.error({ err: error, requestId }, "provider crashed");
    await failRequest(deps.db, requestId, providerError.message);
    throw toCallError(providerError);
  }

  let responseFile: string | null = null;
  let responseBody: unknown = null;
  try {
    if (output.kind === "image") {
      responseFile = newFileKey(caller);
      await storeImage(deps.files, responseFile, output.data);
    } else {
      responseBody = output.body;
    }
  } catch (error) {
    deps.log.error({ err: error, requestId }, "could not store the result");
    await failRequest(deps.db, requestId, "The result could not be stored.");
    throw new AppError("feature-failed", "The result could not be stored. You were not charged for it.");
  }

  const day = new Date().toISOString().slice(0, 10);
  await settle(deps.db, reference, async (tx) => {
    await tx
      .update(featureRequests)
      .set({ status: "done", responseFile, responseBody, completedAt: new Date() })
      .where(eq(featureRequests.id, requestId));
    await addUsage(tx, {
      projectId: caller.projectId,
      endpoint: feature.endpoint,
      callType,
      day,
      units,
      costMicros: priceMicros,
    });
  });
  if (deps.afterCharge) {
    deps
      .afterCharge(caller.organizationId)
      .catch((error: unknown) => deps.log.error({ err: error }, "auto recharge failed"));
  }

  return answer(deps, caller, requestId);
}

async function answer(
  deps: GatewayDeps,
  caller: FeatureCaller,
  requestId: string,
): Promise<FeatureCallResponse> {
  const [row] = await deps.db.select().from(featureRequests).where(eq(featureRequests.id, requestId));
  const [organization] = await deps.db
    .select({ balanceMicros: organizations.balanceMicros })
    .from(organizations)
    .where(eq(organizations.id, caller.organizationId));
  if (!row || !organization) throw new Error("the request vanished");
  return { balance: microsToUsd(organization.balanceMicros), request: toHistoryRecord(row) };
}

/** Marks a request failed and gives its reservation back, once. */
export async function failRequest(db: Database, requestId: string, message: string): Promise<void> {
  await refund(db, `request:${requestId}`);
  await db
    .update(featureRequests)
    .set({ status: "error", errorMessage: message.slice(0, 500), completedAt: new Date() })
    .where(and(eq(featureRequests.id, requestId), eq(featureRequests.status, "generating")));
}

/** The request ids of a crashed process's calls: refunded and marked failed (start-up and every minute). */
export async function sweepAbandonedRequests(db: Database, olderThan: Date): Promise<number> {
  const stale = await db
    .select({ id: featureRequests.id })
    .from(featureRequests)
    .where(
      and(
        eq(featureRequests.status, "generating"),
        sql`${featureRequests.createdAt} < ${olderThan}`,
        // Queued work (training) belongs to the job queue, which retries and refunds it itself.
        notInArray(featureRequests.endpoint, ASYNCHRONOUS_ENDPOINTS),
      ),
    )
    .limit(500);
  for (const { id } of stale) {
    await failRequest(db, id, "The request was interrupted and refunded.");
  }
  return stale.length;
}
