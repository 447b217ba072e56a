import { isIP } from "node:net";
import { isAbsolute, resolve } from "node:path";
import {
  DEFAULT_API_KEY_REQUESTS_PER_MINUTE,
  DEFAULT_CALL_QUEUE_TIMEOUT_MS,
  DEFAULT_MODEL_SERVER_CONCURRENCY,
  DEFAULT_OPENAI_CONCURRENCY,
  DEFAULT_ORGANIZATION_QUEUED_CALLS,
  DEFAULT_REQUEST_TIMEOUT_MS,
  PRODUCT_NAME,
  PROVIDER_NAMES,
  PROVIDER_TIMEOUT_MAX_MS,
  type ProviderName,
} from "@prism/contract";
import { z } from "zod";
import { DEFAULT_WEB_DIST_DIR } from "./paths";

const APP_ENVS = ["development", "test", "production"] as const;

const optionalString = z
  .string()
  .trim()
  .transform((value) => (value === "" ? undefined : value))
  .optional();

const optionalUrl = optionalString.pipe(
  z.url({ message: "must be a full URL such as https://example.com" }).optional(),
);

/** How many calls a provider may run at once across all server processes. */
const concurrency = (fallback: number) =>
  z.coerce
    .number({ message: "must be a whole number of at least 1" })
    .int()
    .min(1)
    .max(1000)
    .default(fallback);

/** An optional random secret, refused when shorter than `minLength` characters. */
const randomSecret = (minLength: number) =>
  optionalString.pipe(
    z
      .string()
      .min(minLength, { message: `must be at least ${minLength} characters (a random secret)` })
      .optional(),
  );

const booleanFlag = z
  .enum(["true", "false", "1", "0", ""], { message: 'must be "true" or "false"' })
  .optional()
  .transform((value) => value === "true" || value === "1");

/**
 * Every environment variable the server reads, with its default. The defaults are the embedded setup
 * (PGlite under DATA_DIR, local files, outbox mail) so that `npm start` needs nothing else.
 * `.env.example` lists the same variables; keep the two in step.
 */
const envSchema = z.object({
  PORT: z.coerce.number({ message: "must be a port number" }).int().min(0).max(65_535).default(3000),
  // Loopback by default: a console started on a laptop or a shared host is not on the network until
  // someone says so (HOST=0.0.0.0 behind a firewall or proxy).
  HOST: z.string().trim().min(1).default("127.0.0.1"),
  APP_ENV: z.enum(APP_ENVS, { message: `must be one of ${APP_ENVS.join(", ")}` }).default("development"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, { message: "must be a postgres:// connection URL" })
      .optional(),
  ),
  PUBLIC_URL: optionalUrl,
  TRUSTED_ORIGINS: optionalString,
  TRUST_PROXY: optionalString,
  METRICS_TOKEN: randomSecret(16),
  APP_SECRET: randomSecret(32),
  SHUTDOWN_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(0)
    .max(600_000)
    .default(20_000),
  REQUEST_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(1_000)
    .max(86_400_000)
    .default(DEFAULT_REQUEST_TIMEOUT_MS),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  WEB_DIST_DIR: optionalString,

  SMTP_URL: optionalString.pipe(
    z
      .string()
      .regex(/^smtps?:\/\//, { message: "must be an smtp:// or smtps:// URL" })
      .optional(),
  ),
  MAIL_FROM: z.string().trim().min(3).default(`${PRODUCT_NAME} <no-reply@prism.local>`),

  RECAPTCHA_V3_SITE_KEY: optionalString,
  RECAPTCHA_V3_SECRET_KEY: optionalString,
  RECAPTCHA_V2_SITE_KEY: optionalString,
  RECAPTCHA_V2_SECRET_KEY: optionalString,
  RECAPTCHA_MIN_SCORE: z.coerce
    .number({ message: "must be a number between 0 and 1" })
    .min(0)
    .max(1)
    .default(0.5),
  RECAPTCHA_VERIFY_URL: z.url().default("https://www.google.com/recaptcha/api/siteverify"),
  RECAPTCHA_SCRIPT_URL: z.url().default("https://www.google.com/recaptcha/api.js"),

  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_JWKS_URL: z.url().default("https://www.googleapis.com/oauth2/v3/certs"),

  GITHUB_CLIENT_ID: optionalString,
  GITHUB_CLIENT_SECRET: optionalString,
  GITHUB_OAUTH_BASE_URL: z.url().default("https://github.com"),
  GITHUB_API_BASE_URL: z.url().default("https://api.github.com"),

  STRIPE_SECRET_KEY: optionalString,
  STRIPE_PUBLISHABLE_KEY: optionalString,
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_BASE_URL: optionalUrl,

  SELLER_NAME: z.string().trim().min(1).default(PRODUCT_NAME),
  SELLER_ADDRESS: optionalString,
  SELLER_TAX_ID: optionalString,

  BUILTIN_ENGINE: z.enum(["on", "off"], { message: 'must be "on" or "off"' }).default("on"),
  ENGINE_WORKERS: z.coerce.number().int().min(1).max(64).optional(),
  PROVIDER_TIMEOUT_MS: z.coerce.number().int().min(1_000).max(PROVIDER_TIMEOUT_MAX_MS).default(300_000),
  REQUEST_SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
  ORGANIZATION_QUEUED_CALLS: z.coerce
    .number({ message: "must be a whole number (0 for no limit)" })
    .int()
    .min(0)
    .default(DEFAULT_ORGANIZATION_QUEUED_CALLS),
  CALL_QUEUE_TIMEOUT_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(1_000)
    .max(7 * 24 * 3_600_000)
    .default(DEFAULT_CALL_QUEUE_TIMEOUT_MS),
  CALL_LEASE_MS: z.coerce
    .number({ message: "must be a number of milliseconds" })
    .int()
    .min(400)
    .max(3_600_000)
    .default(60_000),
  AUTH_LIMITS_PER_IP_SCALE: z.coerce
    .number({ message: "must be a whole number of at least 1" })
    .int()
    .min(1)
    .max(1000)
    .default(1),
  API_KEY_REQUESTS_PER_MINUTE: z.coerce
    .number({ message: "must be a whole number (0 for no limit)" })
    .int()
    .min(0)
    .default(DEFAULT_API_KEY_REQUESTS_PER_MINUTE),
  PRICES_FILE: optionalString,
  MODEL_SERVER_URL: optionalUrl,
  MODEL_SERVER_API_KEY: optionalString,
  MODEL_SERVER_FEATURES: z.string().trim().default("all"),
  MODEL_SERVER_PROBE_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(5_000),
  MODEL_SERVER_CONCURRENCY: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(DEFAULT_MODEL_SERVER_CONCURRENCY),
  OPENAI_API_KEY: optionalString,
  OPENAI_BASE_URL: optionalUrl,
  OPENAI_FEATURES: z.string().trim().default("image-generation,generative-fill,speech-to-text"),
  OPENAI_IMAGE_MODEL: z.string().trim().default("gpt-image-1"),
  OPENAI_TRANSCRIPTION_MODEL: z.string().trim().default("whisper-1"),
  OPENAI_CONCURRENCY: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_OPENAI_CONCURRENCY),
  FEATURE_PROVIDERS: optionalString,
  PROVIDER_MODELS_FILE: optionalString,
  REPLICATE_API_TOKEN: optionalString,
  REPLICATE_API_URL: optionalUrl,
  REPLICATE_CONCURRENCY: concurrency(8),
  FAL_KEY: optionalString,
  FAL_BASE_URL: optionalUrl,
  FAL_CONCURRENCY: concurrency(8),
  STABILITY_API_KEY: optionalString,
  STABILITY_API_URL: optionalUrl,
  STABILITY_CONCURRENCY: concurrency(4),
  COMFYUI_URLS: optionalString,

  S3_BUCKET: optionalString,
  S3_REGION: z.string().trim().default("us-east-1"),
  S3_ENDPOINT: optionalUrl,
  S3_ACCESS_KEY_ID: optionalString,
  S3_SECRET_ACCESS_KEY: optionalString,
  S3_FORCE_PATH_STYLE: booleanFlag,
  S3_PREFIX: z.string().trim().default(""),
});

export type AppEnv = (typeof APP_ENVS)[number];

export interface AppConfig {
  port: number;
  host: string;
  appEnv: AppEnv;
  isProduction: boolean;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The origin browsers reach us at, when it differs from the Host header (behind a proxy). */
  publicUrl: string | undefined;
  /**
   * The origin links in mails point at: PUBLIC_URL (required in production), else this machine's
   * http://localhost:PORT. Never the request's Host header, which whoever sends the request chooses.
   */
  appOrigin: string;
  /** Extra origins whose cookie-authenticated calls are accepted (the Vite dev server in development). */
  trustedOrigins: string[];
  /**
   * Which peers' X-Forwarded-For entries are believed (see {@link parseTrustProxy}): none, every one
   * (`true`, outside production only), the proxies at these addresses, or this many hops.
   */
  trustProxy: TrustProxy;
  /** Bearer token for GET /metrics; unset leaves it open (refused in production). */
  metricsToken: string | undefined;
  /**
   * The server's own secret, from which the keys of data kept encrypted at rest are derived (one key
   * per purpose). A fixed, public default outside production; production refuses to start without one.
   */
  appSecret: string;
  /**
   * On SIGTERM, how long running feature calls may take to finish before they are stopped and
   * refunded (new calls are refused at once).
   */
  shutdownTimeoutMs: number;
  /**
   * How long a request may take to arrive whole (headers and body): the largest legitimate upload on
   * a slow line by default. A body trickling in slower is cut off with 408.
   */
  requestTimeoutMs: number;
  logLevel: string;
  webDistDir: string;
  mail: { smtpUrl: string | undefined; from: string };
  /** reCAPTCHA, on when all four keys are set. */
  recaptcha:
    | {
        v3SiteKey: string;
        v3SecretKey: string;
        v2SiteKey: string;
        v2SecretKey: string;
        minScore: number;
        verifyUrl: string;
        scriptUrl: string;
      }
    | undefined;
  google: { clientId: string; jwksUrl: string } | undefined;
  github: { clientId: string; clientSecret: string; oauthBaseUrl: string; apiBaseUrl: string } | undefined;
  /** An S3-compatible bucket for stored files; unset keeps them under DATA_DIR/files. */
  s3:
    | {
        bucket: string;
        region: string;
        endpoint: string | undefined;
        accessKeyId: string | undefined;
        secretAccessKey: string | undefined;
        forcePathStyle: boolean;
        prefix: string;
      }
    | undefined;
  /** Limits that keep one caller from taking the gateway for itself; 0 turns one off. */
  limits: {
    /** Feature calls one organization may have queued or running at once, across every server process. */
    organizationQueuedCalls: number;
    /** Requests one API key may make per minute, across every server process. */
    apiKeyRequestsPerMinute: number;
    /** Multiplies the per-IP sign-in and sign-up throttles (never the per-email ones). */
    authLimitsPerIpScale: number;
  };
  inference: {
    builtinEngine: boolean;
    engineWorkers: number | undefined;
    providerTimeoutMs: number;
    /**
     * How often the sweeper looks for calls a crashed process abandoned; a call is refunded once it is
     * this much older than the provider timeout.
     */
    sweepIntervalMs: number;
    /** Longest a call may wait queued before it is failed and refunded. */
    queueTimeoutMs: number;
    /**
     * How long a running call's process may go without renewing its hold before the call counts as
     * abandoned (the process died) and is refunded; renewed every quarter of it.
     */
    callLeaseMs: number;
    pricesFile: string | undefined;
    modelServer:
      | {
          url: string;
          apiKey: string | undefined;
          features: "all" | string[];
          concurrency: number;
          probeTimeoutMs: number;
        }
      | undefined;
    openai:
      | {
          apiKey: string;
          baseUrl: string | undefined;
          features: string[];
          imageModel: string;
          transcriptionModel: string;
          concurrency: number;
        }
      | undefined;
    /** Hosted platforms and ComfyUI, each on when its key or addresses are set. */
    replicate: { apiToken: string; baseUrl: string | undefined; capacity: number } | undefined;
    fal: { apiKey: string; baseUrl: string | undefined; capacity: number } | undefined;
    stability: { apiKey: string; baseUrl: string | undefined; capacity: number } | undefined;
    comfyui: { urls: string[] } | undefined;
    /** The operator's model map (JSON) laid over the shipped one. */
    modelsFile: string | undefined;
    /** Explicit provider per feature id, e.g. {"speech-to-text": "openai"}. */
    overrides: Record<string, ProviderName>;
  };
  /** Who issues the invoices: printed on every invoice and credit note. */
  seller: SellerDetails;
  /** Stripe when both keys are set; otherwise the sandbox provider. */
  stripe:
    | {
        secretKey: string;
        publishableKey: string;
        webhookSecret: string | undefined;
        apiBaseUrl: string | undefined;
      }
    | undefined;
}

/**
 * What TRUST_PROXY says: `false` believes no forwarded header (the socket's address is the client's);
 * addresses (IPs or CIDR ranges) believe the proxies at those addresses; a hop count believes that
 * many proxies counted from the server; `true` believes every entry, so the client's own left-most
 * one wins (refused in production). The client address is the right-most one not believed.
 */
export type TrustProxy = boolean | { hops: number } | { addresses: string[] };

const TRUST_PROXY_HELP =
  "the number of proxies in front of the server (1 behind one load balancer) or their addresses, comma-separated IPs or CIDR ranges such as 10.0.0.0/8";

function isAddressOrRange(entry: string): boolean {
  const [address = "", prefix, extra] = entry.split("/");
  const family = isIP(address);
  if (family === 0 || extra !== undefined) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

/** TRUST_PROXY's value, or the problem with it. */
export function parseTrustProxy(text: string | undefined, isProduction: boolean): TrustProxy | string {
  if (text === undefined || text === "false" || text === "0") return false;
  if (text === "true") {
    return isProduction
      ? `TRUST_PROXY: "true" believes every X-Forwarded-For entry, including the ones the client writes itself, so any client could choose its own IP address (API key allowlists, sign-in throttling, logs). Set ${TRUST_PROXY_HELP}`
      : true;
  }
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    return hops <= 10
      ? { hops }
      : `TRUST_PROXY: ${hops} proxies is not a plausible chain; set ${TRUST_PROXY_HELP}`;
  }
  const addresses = text
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean);
  const invalid = addresses.filter((entry) => !isAddressOrRange(entry));
  if (addresses.length === 0 || invalid.length > 0) {
    return `TRUST_PROXY: "${invalid.join(", ") || text}" is not an IP address or CIDR range; set "false", ${TRUST_PROXY_HELP}`;
  }
  return { addresses };
}

export interface SellerDetails {
  name: string;
  addressLines: string[];
  taxId: string | undefined;
}

/** Address lines are separated by newlines, or by a literal `\n` where the environment cannot hold one. */
function addressLines(address: string | undefined): string[] {
  return (address ?? "")
    .split(/\r?\n|\\n/)
    .map((line) => line.trim())
    .filter(Boolean);
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join("\n")}`);
    this.name = "ConfigError";
  }
}

const DEV_SERVER_ORIGIN = "http://localhost:5173";
/** Public by design: what it protects outside production is test data. Production refuses it. */
const DEVELOPMENT_APP_SECRET = "prism-development-app-secret-never-use-in-production";

/**
 * What production refuses to run without. Each embedded default is safe on a developer's machine and
 * unsafe in front of customers: the sandbox provider accepts test cards and charges nothing, outbox
 * mail is readable by whoever reaches the dev mailbox and never reaches the user, and without a public
 * origin links in mails would have to trust the request's Host header.
 */
function productionProblems(values: z.infer<typeof envSchema>): string[] {
  const problems: string[] = [];
  const reason = "required when APP_ENV=production";
  if (!values.STRIPE_SECRET_KEY || !values.STRIPE_PUBLISHABLE_KEY) {
    problems.push(
      `STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: ${reason} (the sandbox payments provider exists only outside production)`,
    );
  }
  if (!values.STRIPE_WEBHOOK_SECRET) {
    problems.push(
      `STRIPE_WEBHOOK_SECRET: ${reason} (payments confirmed late, refunds and disputes reach the ledger only by webhook)`,
    );
  }
  if (!values.SMTP_URL) {
    problems.push(
      `SMTP_URL: ${reason} (without it mail stays in the dev mailbox's outbox and reaches nobody)`,
    );
  }
  if (!values.PUBLIC_URL) {
    problems.push(`PUBLIC_URL: ${reason} (the origin of the links in mails and of the console's calls)`);
  }
  if (!values.METRICS_TOKEN) {
    problems.push(
      `METRICS_TOKEN: ${reason} (GET /metrics shows traffic, money flows and queue state to whoever reaches it)`,
    );
  }
  if (!values.APP_SECRET || values.APP_SECRET === DEVELOPMENT_APP_SECRET) {
    problems.push(
      `APP_SECRET: ${reason}, and not the development default (the key of the authenticator secrets stored encrypted)`,
    );
  }
  return problems;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env, cwd = process.cwd()): AppConfig {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join(".") || "environment"}: ${issue.message}`),
    );
  }
  const values = parsed.data;
  const toAbsolute = (path: string) => (isAbsolute(path) ? path : resolve(cwd, path));
  const trustedOrigins = (values.TRUSTED_ORIGINS ?? "")
    .split(",")
    .map((origin) => origin.trim())
    .filter(Boolean);
  const problems: string[] = [];
  for (const origin of trustedOrigins) {
    if (!URL.canParse(origin)) problems.push(`TRUSTED_ORIGINS: "${origin}" is not a URL`);
  }
  const recaptchaKeys = [
    values.RECAPTCHA_V3_SITE_KEY,
    values.RECAPTCHA_V3_SECRET_KEY,
    values.RECAPTCHA_V2_SITE_KEY,
    values.RECAPTCHA_V2_SECRET_KEY,
  ];
  if (recaptchaKeys.some(Boolean) && !recaptchaKeys.every(Boolean)) {
    problems.push(
      "RECAPTCHA_V3_SITE_KEY, RECAPTCHA_V3_SECRET_KEY, RECAPTCHA_V2_SITE_KEY and RECAPTCHA_V2_SECRET_KEY: set all four or none",
    );
  }
  if (Boolean(values.GITHUB_CLIENT_ID) !== Boolean(values.GITHUB_CLIENT_SECRET)) {
    problems.push("GITHUB_CLIENT_ID and GITHUB_CLIENT_SECRET: set both or neither");
  }
  const overrides: Record<string, ProviderName> = {};
  for (const pair of (values.FEATURE_PROVIDERS ?? "")
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)) {
    const [featureId, provider] = pair.split("=").map((part) => part.trim());
    const known = PROVIDER_NAMES.find((name) => name === provider);
    if (!featureId || !known) {
      problems.push(`FEATURE_PROVIDERS: "${pair}" must look like feature-id=${PROVIDER_NAMES.join("|")}`);
    } else {
      overrides[featureId] = known;
    }
  }
  const listOf = (text: string) =>
    text
      .split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
  const comfyUrls = listOf(values.COMFYUI_URLS ?? "").map((url) => url.replace(/\/+$/, ""));
  for (const url of comfyUrls) {
    if (!URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      problems.push(`COMFYUI_URLS: "${url}" is not an http(s) URL`);
    }
  }
  if (Boolean(values.STRIPE_SECRET_KEY) !== Boolean(values.STRIPE_PUBLISHABLE_KEY)) {
    problems.push("STRIPE_SECRET_KEY and STRIPE_PUBLISHABLE_KEY: set both or neither");
  }
  const trustProxy = parseTrustProxy(values.TRUST_PROXY, values.APP_ENV === "production");
  if (typeof trustProxy === "string") problems.push(trustProxy);
  if (values.APP_ENV === "production") problems.push(...productionProblems(values));
  // The second test only narrows the type: a string was pushed as a problem above.
  if (problems.length > 0 || typeof trustProxy === "string") throw new ConfigError(problems);
  if (values.APP_ENV === "development") trustedOrigins.push(DEV_SERVER_ORIGIN);

  return {
    port: values.PORT,
    host: values.HOST,
    appEnv: values.APP_ENV,
    isProduction: values.APP_ENV === "production",
    dataDir: toAbsolute(values.DATA_DIR),
    databaseUrl: values.DATABASE_URL,
    publicUrl: values.PUBLIC_URL ? new URL(values.PUBLIC_URL).origin : undefined,
    appOrigin: values.PUBLIC_URL ? new URL(values.PUBLIC_URL).origin : `http://localhost:${values.PORT}`,
    trustedOrigins: trustedOrigins.map((origin) => new URL(origin).origin),
    trustProxy,
    metricsToken: values.METRICS_TOKEN,
    appSecret: values.APP_SECRET ?? DEVELOPMENT_APP_SECRET,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    requestTimeoutMs: values.REQUEST_TIMEOUT_MS,
    logLevel: values.LOG_LEVEL,
    webDistDir: values.WEB_DIST_DIR ? toAbsolute(values.WEB_DIST_DIR) : DEFAULT_WEB_DIST_DIR,
    mail: { smtpUrl: values.SMTP_URL, from: values.MAIL_FROM },
    recaptcha:
      values.RECAPTCHA_V3_SITE_KEY &&
      values.RECAPTCHA_V3_SECRET_KEY &&
      values.RECAPTCHA_V2_SITE_KEY &&
      values.RECAPTCHA_V2_SECRET_KEY
        ? {
            v3SiteKey: values.RECAPTCHA_V3_SITE_KEY,
            v3SecretKey: values.RECAPTCHA_V3_SECRET_KEY,
            v2SiteKey: values.RECAPTCHA_V2_SITE_KEY,
            v2SecretKey: values.RECAPTCHA_V2_SECRET_KEY,
            minScore: values.RECAPTCHA_MIN_SCORE,
            verifyUrl: values.RECAPTCHA_VERIFY_URL,
            scriptUrl: values.RECAPTCHA_SCRIPT_URL,
          }
        : undefined,
    google: values.GOOGLE_CLIENT_ID
      ? { clientId: values.GOOGLE_CLIENT_ID, jwksUrl: values.GOOGLE_JWKS_URL }
      : undefined,
    github:
      values.GITHUB_CLIENT_ID && values.GITHUB_CLIENT_SECRET
        ? {
            clientId: values.GITHUB_CLIENT_ID,
            clientSecret: values.GITHUB_CLIENT_SECRET,
            oauthBaseUrl: values.GITHUB_OAUTH_BASE_URL.replace(/\/+$/, ""),
            apiBaseUrl: values.GITHUB_API_BASE_URL.replace(/\/+$/, ""),
          }
        : undefined,
    s3: values.S3_BUCKET
      ? {
          bucket: values.S3_BUCKET,
          region: values.S3_REGION,
          endpoint: values.S3_ENDPOINT,
          accessKeyId: values.S3_ACCESS_KEY_ID,
          secretAccessKey: values.S3_SECRET_ACCESS_KEY,
          forcePathStyle: values.S3_FORCE_PATH_STYLE,
          prefix: values.S3_PREFIX,
        }
      : undefined,
    limits: {
      organizationQueuedCalls: values.ORGANIZATION_QUEUED_CALLS,
      apiKeyRequestsPerMinute: values.API_KEY_REQUESTS_PER_MINUTE,
      authLimitsPerIpScale: values.AUTH_LIMITS_PER_IP_SCALE,
    },
    inference: {
      builtinEngine: values.BUILTIN_ENGINE === "on",
      engineWorkers: values.ENGINE_WORKERS,
      providerTimeoutMs: values.PROVIDER_TIMEOUT_MS,
      sweepIntervalMs: values.REQUEST_SWEEP_INTERVAL_MS,
      queueTimeoutMs: values.CALL_QUEUE_TIMEOUT_MS,
      callLeaseMs: values.CALL_LEASE_MS,
      pricesFile: values.PRICES_FILE ? toAbsolute(values.PRICES_FILE) : undefined,
      modelServer: values.MODEL_SERVER_URL
        ? {
            url: values.MODEL_SERVER_URL.replace(/\/+$/, ""),
            apiKey: values.MODEL_SERVER_API_KEY,
            features: values.MODEL_SERVER_FEATURES === "all" ? "all" : listOf(values.MODEL_SERVER_FEATURES),
            concurrency: values.MODEL_SERVER_CONCURRENCY,
            probeTimeoutMs: values.MODEL_SERVER_PROBE_TIMEOUT_MS,
          }
        : undefined,
      openai: values.OPENAI_API_KEY
        ? {
            apiKey: values.OPENAI_API_KEY,
            baseUrl: values.OPENAI_BASE_URL,
            features: listOf(values.OPENAI_FEATURES),
            imageModel: values.OPENAI_IMAGE_MODEL,
            transcriptionModel: values.OPENAI_TRANSCRIPTION_MODEL,
            concurrency: values.OPENAI_CONCURRENCY,
          }
        : undefined,
      replicate: values.REPLICATE_API_TOKEN
        ? {
            apiToken: values.REPLICATE_API_TOKEN,
            baseUrl: values.REPLICATE_API_URL,
            capacity: values.REPLICATE_CONCURRENCY,
          }
        : undefined,
      fal: values.FAL_KEY
        ? { apiKey: values.FAL_KEY, baseUrl: values.FAL_BASE_URL, capacity: values.FAL_CONCURRENCY }
        : undefined,
      stability: values.STABILITY_API_KEY
        ? {
            apiKey: values.STABILITY_API_KEY,
            baseUrl: values.STABILITY_API_URL,
            capacity: values.STABILITY_CONCURRENCY,
          }
        : undefined,
      comfyui: comfyUrls.length > 0 ? { urls: comfyUrls } : undefined,
      modelsFile: values.PROVIDER_MODELS_FILE ? toAbsolute(values.PROVIDER_MODELS_FILE) : undefined,
      overrides,
    },
    stripe:
      values.STRIPE_SECRET_KEY && values.STRIPE_PUBLISHABLE_KEY
        ? {
            secretKey: values.STRIPE_SECRET_KEY,
            publishableKey: values.STRIPE_PUBLISHABLE_KEY,
            webhookSecret: values.STRIPE_WEBHOOK_SECRET,
            apiBaseUrl: values.STRIPE_API_BASE_URL,
          }
        : undefined,
    seller: {
      name: values.SELLER_NAME,
      addressLines: addressLines(values.SELLER_ADDRESS),
      taxId: values.SELLER_TAX_ID,
    },
  };
}
