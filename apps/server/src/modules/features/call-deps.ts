import type { FastifyBaseLogger } from "fastify";
import type { Database } from "../../db/client";
import type { ProviderRegistry } from "../../providers/inference/registry";
import type { PriceBook } from "../../providers/prices";
import type { FileStore } from "../../providers/storage/file-store";
import type { ApiKeyRules, KeyOrganizationState } from "../api-keys/api-key-runtime.service";
import type { CallDispatcher } from "./call-dispatcher";
import type { InFlightCalls } from "./in-flight-calls";

/**
 * What a feature call needs from the outside world, from admission to settlement (built once in
 * app.ts; tests build it through the app).
 */
export interface GatewayDeps {
  db: Database;
  files: FileStore;
  registry: ProviderRegistry;
  prices: PriceBook;
  /** This process's side of the call queue: its slots, the calls it runs, the waiters it wakes. */
  dispatcher: CallDispatcher;
  /** Longest a provider may work on one call, from the moment a slot starts it. */
  providerTimeoutMs: number;
  /** Feature calls one organization may have queued or running at once (0: no limit). */
  organizationQueuedCalls: number;
  log: FastifyBaseLogger;
  /** This process's feature requests, for a graceful stop (absent: not tracked). */
  inFlight?: InFlightCalls;
  /**
   * Called after a settled charge that left the balance below an armed auto recharge's threshold (it
   * checks again itself), not awaited by the response.
   */
  afterCharge?: (organizationId: string) => Promise<unknown>;
  /** Per-call webhooks may target this machine and private networks (outside production only). */
  allowPrivateWebhooks: boolean;
}

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

/** The AI Clone a feature call uses: its identity and the training request that produced it. */
export interface CallIdentity {
  identityId: string;
  requestId: string;
}
