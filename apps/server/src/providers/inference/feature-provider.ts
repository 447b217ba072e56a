import type { Feature, FeatureResultBody, IdentityStatus, ProviderName } from "@prism/contract";

/** One uploaded file as the gateway validated it (type checked by content, not by name). */
export interface ProviderFile {
  buffer: Buffer;
  mimeType: string;
  filename: string;
}

export interface ProviderInput {
  /** Files by multipart field name, e.g. `image`, `mask`, `source`, `target`, `images`, `audio`. */
  files: Record<string, ProviderFile[]>;
  /** The feature's parsed body fields (the catalog's `bodySchema` output). */
  body: Record<string, unknown>;
  /** The identity (AI Clone) a call uses: its identity id and training request id. */
  identity?: { identityId: string; requestId: string };
  /** Our id of the call (the request row's), for providers that can label upstream work with it. */
  callId?: string;
}

/**
 * What the upstream platform reported the run cost us, when it reports it (Replicate's and fal's
 * compute time, a price the model map states per output). Kept on the request row for the operator's
 * margin figures; never shown to customers.
 */
export interface UpstreamUsage {
  /** Integer micro-dollars. */
  costMicros?: bigint;
  /** Whole milliseconds of compute the platform billed or measured. */
  computeMs?: number;
}

export type ProviderOutput = (
  | {
      kind: "image";
      data: Buffer;
      mimeType: string;
      /**
       * The bytes were encoded by this server's own code (the builtin engine) from pixels it computed,
       * so they hold nothing an outside party put there and are stored as they are, not decoded and
       * encoded again. Absent for anything a model server or remote API sent.
       */
      encodedHere?: true;
    }
  | { kind: "json"; body: FeatureResultBody }
) & { upstream?: UpstreamUsage };

export type ProviderErrorCode = "failed" | "timeout" | "unavailable" | "invalid-input";

/** A failure the gateway turns into a refund and a clear error; `message` is safe to show users. */
export class ProviderError extends Error {
  constructor(
    readonly code: ProviderErrorCode,
    message: string,
  ) {
    super(message);
    this.name = "ProviderError";
  }
}

export interface ProviderAvailability {
  available: boolean;
  reason?: string;
}

/** The state of an AI Clone training a provider accepted. */
export interface TrainingStatus {
  status: IdentityStatus;
}

/**
 * How many calls a provider may run at once (decision 019): the call queue starts a call only in a
 * free slot. `process`: each server process has this many of its own (the builtin engine's worker
 * threads); `shared`: this many across every process (a model server's or a hosted API's capacity).
 */
export interface ProviderCapacity {
  slots: number;
  scope: "process" | "shared";
}

/**
 * Something that can run features: the builtin CPU engine, a model server speaking our HTTP
 * protocol (docs/model-server.md), an OpenAI-compatible API, or a hosted platform (Replicate, fal,
 * Stability) or ComfyUI instances. The registry picks one per feature.
 */
export interface FeatureProvider {
  readonly name: ProviderName;
  readonly capacity: ProviderCapacity;
  /** Whether this provider implements the feature at all. */
  supports(feature: Feature): boolean;
  availability(feature: Feature): Promise<ProviderAvailability>;
  /**
   * Runs one call. The signal aborts on the caller's cancel, on the call's timeout and on shutdown; a
   * provider then stops the upstream work (its own cancel where the protocol has one) and rejects.
   */
  run(feature: Feature, input: ProviderInput, signal: AbortSignal): Promise<ProviderOutput>;
  /**
   * Where an AI Clone training it accepted stands (the job queue polls it until ready or failed).
   * Absent: the provider's trainings are final when run() answers.
   */
  trainingStatus?(identityId: string, signal?: AbortSignal): Promise<TrainingStatus>;
  /** Checks at start-up that the provider can serve what it was configured for; throws saying why not. */
  verify?(): Promise<void>;
  close?(): Promise<void>;
}
