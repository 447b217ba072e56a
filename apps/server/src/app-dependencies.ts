import { join } from "node:path";
import { billableUnits, type Feature } from "@prism/contract";
import { createEngine } from "@prism/engine";
import type { FastifyBaseLogger } from "fastify";
import type Stripe from "stripe";
import type { AppConfig } from "./config";
import type { DatabaseHandle } from "./db/client";
import { createMetrics, type Metrics, measuredMailer, measuredProvider } from "./modules/metrics/metrics";
import { type BotCheck, createRecaptchaBotCheck, noBotCheck } from "./providers/bot-check/bot-check";
import { createBuiltinProvider } from "./providers/inference/builtin-provider";
import { createComfyProvider } from "./providers/inference/comfyui-provider";
import { createFalProvider } from "./providers/inference/fal-provider";
import type { FeatureProvider, ProviderInput } from "./providers/inference/feature-provider";
import { createHttpProvider } from "./providers/inference/http-provider";
import { loadModelMaps } from "./providers/inference/model-map";
import { createOpenAiProvider } from "./providers/inference/openai-provider";
import { ProviderRegistry } from "./providers/inference/registry";
import { createReplicateProvider } from "./providers/inference/replicate-provider";
import { createStabilityProvider } from "./providers/inference/stability-provider";
import { type Mailer, OutboxMailer, SmtpMailer } from "./providers/mail/mailer";
import { createGitHubSignIn, type GitHubSignIn } from "./providers/oauth/github";
import { createGoogleVerifier, type GoogleVerifier } from "./providers/oauth/google";
import { argon2Passwords, type PasswordHasher } from "./providers/password-hashing";
import type { PaymentsProvider } from "./providers/payments/payments-provider";
import { SandboxPaymentsProvider } from "./providers/payments/sandbox-provider";
import { createStripeClient, StripePaymentsProvider } from "./providers/payments/stripe-provider";
import { PriceBook } from "./providers/prices";
import { type FileStore, localFileStoreFor } from "./providers/storage/file-store";
import { S3FileStore } from "./providers/storage/s3-file-store";

/**
 * Everything a module needs from the outside world, built once at start-up (or per test) and passed
 * down explicitly, so tests swap real parts for local ones without module-level singletons.
 */
export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
  mailer: Mailer;
  /** Password hashing (argon2id). */
  passwords: PasswordHasher;
  /** The outbox is always there: it is the mailer by default and the dev mailbox reads it. */
  outbox: OutboxMailer;
  botCheck: BotCheck;
  verifyGoogleCredential: GoogleVerifier | undefined;
  signInWithGitHub: GitHubSignIn | undefined;
  payments: PaymentsProvider;
  /** Set when the sandbox provider runs: it also serves the card form's confirm step. */
  sandboxPayments: SandboxPaymentsProvider | undefined;
  stripe: Stripe | undefined;
  files: FileStore;
  registry: ProviderRegistry;
  prices: PriceBook;
  /** Prometheus metrics of this process (GET /metrics). */
  metrics: Metrics;
}

/** The providers this configuration asks for, in the order they are preferred. */
export function createProviderRegistry(
  config: AppConfig,
  metrics?: Metrics,
  prices?: PriceBook,
): ProviderRegistry {
  const { inference } = config;
  // Remote providers were configured on purpose, so they come first; the CPU engine fills in.
  const providers: FeatureProvider[] = [];
  if (inference.modelServer) {
    providers.push(
      createHttpProvider({
        baseUrl: inference.modelServer.url,
        features: inference.modelServer.features,
        ...(inference.modelServer.apiKey ? { apiKey: inference.modelServer.apiKey } : {}),
        timeoutMs: inference.providerTimeoutMs,
        concurrency: inference.modelServer.concurrency,
        probeTimeoutMs: inference.modelServer.probeTimeoutMs,
      }),
    );
  }
  if (inference.openai) {
    providers.push(
      createOpenAiProvider({
        apiKey: inference.openai.apiKey,
        ...(inference.openai.baseUrl ? { baseUrl: inference.openai.baseUrl } : {}),
        features: inference.openai.features,
        models: {
          image: inference.openai.imageModel,
          imageEdit: inference.openai.imageModel,
          transcription: inference.openai.transcriptionModel,
        },
        timeoutMs: inference.providerTimeoutMs,
        concurrency: inference.openai.concurrency,
      }),
    );
  }
  const hosted = inference.replicate || inference.fal || inference.stability || inference.comfyui;
  // The operator's map is read (and refused when malformed) only when a platform will use it.
  const models = hosted ? loadModelMaps(inference.modelsFile) : undefined;
  // Your own GPUs first: a platform bills each call, an instance already paid for does not.
  if (models && inference.comfyui) {
    providers.push(createComfyProvider({ urls: inference.comfyui.urls, models: models.comfyui }));
  }
  if (models && inference.replicate) {
    providers.push(
      createReplicateProvider({
        apiToken: inference.replicate.apiToken,
        ...(inference.replicate.baseUrl ? { baseUrl: inference.replicate.baseUrl } : {}),
        models: models.replicate,
        capacity: inference.replicate.capacity,
      }),
    );
  }
  if (models && inference.fal) {
    providers.push(
      createFalProvider({
        apiKey: inference.fal.apiKey,
        ...(inference.fal.baseUrl ? { baseUrl: inference.fal.baseUrl } : {}),
        models: models.fal,
        capacity: inference.fal.capacity,
      }),
    );
  }
  if (models && inference.stability) {
    providers.push(
      createStabilityProvider({
        apiKey: inference.stability.apiKey,
        ...(inference.stability.baseUrl ? { baseUrl: inference.stability.baseUrl } : {}),
        models: models.stability,
        capacity: inference.stability.capacity,
      }),
    );
  }
  if (inference.builtinEngine) {
    providers.push(
      createBuiltinProvider(
        createEngine({
          workers: config.inference.engineWorkers,
          jobTimeoutMs: config.inference.providerTimeoutMs,
        }),
      ),
    );
  }
  return new ProviderRegistry(
    metrics
      ? providers.map((provider) =>
          measuredProvider(
            provider,
            metrics,
            prices ? (feature, input) => callPriceMicros(prices, feature, input) : undefined,
          ),
        )
      : providers,
    config.inference.overrides,
  );
}

/** What a call that reached its provider is billed: the catalog's units at the feature's price. */
function callPriceMicros(prices: PriceBook, feature: Feature, input: ProviderInput): bigint {
  const price = prices.of(feature);
  const unit =
    input.identity && price.identityUnitMicros !== undefined ? price.identityUnitMicros : price.unitMicros;
  // The gateway measured the audio's length before the call (uploads.ts); the provider sees the same file.
  const seconds = (input.files.audio?.[0] as { durationSeconds?: number } | undefined)?.durationSeconds ?? 0;
  return unit * BigInt(billableUnits(feature, seconds));
}

export function createDependencies(
  config: AppConfig,
  database: DatabaseHandle,
  log?: FastifyBaseLogger,
): AppDependencies {
  // loadConfig already refuses these; a config built any other way must not slip through either.
  if (config.isProduction && (!config.stripe || !config.mail.smtpUrl)) {
    throw new Error(
      "Production needs Stripe and SMTP: the sandbox payments and the outbox mail are for development.",
    );
  }
  const metrics = createMetrics(database);
  const outbox = new OutboxMailer(join(config.dataDir, "outbox"), config.mail.from, log);
  const stripe = config.stripe ? createStripeClient(config.stripe) : undefined;
  const sandboxPayments = stripe ? undefined : new SandboxPaymentsProvider(database.db);
  const payments: PaymentsProvider = stripe
    ? new StripePaymentsProvider(stripe, database.db)
    : (sandboxPayments as SandboxPaymentsProvider);
  const prices = PriceBook.fromFile(config.inference.pricesFile);
  return {
    files: config.s3 ? new S3FileStore(config.s3) : localFileStoreFor(config.dataDir),
    registry: createProviderRegistry(config, metrics, prices),
    metrics,
    prices,
    payments,
    sandboxPayments,
    stripe,
    config,
    database,
    outbox,
    passwords: argon2Passwords,
    mailer: measuredMailer(
      config.mail.smtpUrl ? new SmtpMailer(config.mail.smtpUrl, config.mail.from) : outbox,
      metrics,
    ),
    botCheck: config.recaptcha ? createRecaptchaBotCheck(config.recaptcha) : noBotCheck,
    verifyGoogleCredential: config.google ? createGoogleVerifier(config.google) : undefined,
    signInWithGitHub: config.github ? createGitHubSignIn(config.github) : undefined,
  };
}
