import {
  type FeatureCallResponse,
  type FeatureResultBody,
  REQUEST_STATUSES,
  type RequestDetail,
  type StoredPermissions,
  type WebhookEventBody,
  type WebhookEventType,
} from "@prism/contract";
import type { WebAuthnCredential } from "@simplewebauthn/server";
import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from "drizzle-orm/pg-core";
import type { InvoiceSnapshot, JobKind, JobPayload, SandboxCard } from "./json-columns";

/**
 * The tenancy core every later module builds on: users, their sessions, organizations, memberships
 * and projects. Money is integer micro-dollars in `bigint` columns; times are
 * `timestamptz`. Archiving is a soft delete (`archived_at`), so history and ledger rows keep their
 * references.
 */

const createdAt = () => timestamp("created_at", { withTimezone: true, mode: "date" }).notNull().defaultNow();

export const users = pgTable(
  "users",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** Stored lower-cased and trimmed; the unique index makes sign-up races safe. */
    email: text("email").notNull(),
    firstName: text("first_name").notNull(),
    lastName: text("last_name").notNull(),
    /** argon2id; null for accounts that only ever signed in with Google or GitHub. */
    passwordHash: text("password_hash"),
    isActive: boolean("is_active").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
  },
  (table) => [uniqueIndex("users_email_unique").on(table.email)],
);

export const sessions = pgTable(
  "sessions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** SHA-256 of the opaque cookie token: a database leak does not leak usable sessions. */
    tokenHash: text("token_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rememberMe: boolean("remember_me").notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    /** When the session last made a call, written at most every few minutes (the devices list). */
    lastSeenAt: timestamp("last_seen_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    /**
     * The last sign-in proof (password, authenticator code or passkey) given with this session: at its
     * sign-in, then by `users/reauthenticate`. Sensitive calls need it recent (decision 020); null for
     * sessions opened before it was recorded, which must prove themselves first.
     */
    reauthenticatedAt: timestamp("reauthenticated_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("sessions_token_hash_unique").on(table.tokenHash),
    index("sessions_user_id_idx").on(table.userId),
  ],
);

export const organizations = pgTable("organizations", {
  id: uuid("id").primaryKey().defaultRandom(),
  name: text("name").notNull(),
  /** Cached sum of the ledger, updated in the same transaction as every ledger entry. */
  balanceMicros: bigint("balance_micros", { mode: "bigint" }).notNull().default(sql`0`),
  /** properties.isNew: true until the first successful recharge. */
  isNew: boolean("is_new").notNull().default(true),
  /**
   * Feature calls reserved and not yet settled or refunded: raised by the reservation's conditional
   * update and lowered when the request row leaves `generating`, so the concurrency limit is checked on
   * the row the reservation locks (see ledger/call-money.ts).
   */
  callsInFlight: integer("calls_in_flight").notNull().default(0),
  billingName: text("billing_name"),
  billingEmail: text("billing_email"),
  taxId: text("tax_id"),
  address: text("address"),
  city: text("city"),
  state: text("state"),
  zipCode: text("zip_code"),
  country: text("country"),
  /** The owner requires two-factor sign-in (TOTP or a passkey) of every member. */
  requireTwoFactor: boolean("require_two_factor").notNull().default(false),
  createdAt: createdAt(),
  archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
});

/**
 * A user's place in an organization. `permissions` is the spec's permission tree without the owner
 * flag, which lives in `is_owner` so that "exactly one owner" is a unique index, not a convention.
 */
export const organizationMembers = pgTable(
  "organization_members",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isOwner: boolean("is_owner").notNull().default(false),
    permissions: jsonb("permissions").$type<StoredPermissions>().notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.organizationId, table.userId] }),
    index("organization_members_user_id_idx").on(table.userId),
    uniqueIndex("organization_members_one_owner").on(table.organizationId).where(sql`${table.isOwner}`),
  ],
);

export const projects = pgTable(
  "projects",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    createdAt: createdAt(),
    archivedAt: timestamp("archived_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [index("projects_organization_id_idx").on(table.organizationId)],
);

export const VERIFICATION_PURPOSES = ["verify-email", "reset-password"] as const;
export type VerificationPurpose = (typeof VERIFICATION_PURPOSES)[number];

/**
 * Short-lived codes mailed for email verification and password reset. Only a hash is stored; a new
 * code replaces the previous one of the same purpose and attempt; wrong guesses are counted and lock
 * the code. Sign-up codes are one per attempt, so a stranger's sign-up never replaces the owner's code.
 */
export const verificationCodes = pgTable(
  "verification_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    purpose: text("purpose", { enum: VERIFICATION_PURPOSES }).notNull(),
    /**
     * A sign-up code belongs to one attempt in one browser: the SHA-256 of the random token in that
     * browser's sign-up cookie. Empty for reset codes, which are one per user.
     */
    attemptHash: text("attempt_hash").notNull().default(""),
    /** The password the attempt chose (argon2id); it becomes the account's only when this code confirms. */
    passwordHash: text("password_hash"),
    /** The names the attempt gave; null when the code was asked for by signing in (names unchanged). */
    firstName: text("first_name"),
    lastName: text("last_name"),
    codeHash: text("code_hash").notNull(),
    failedAttempts: integer("failed_attempts").notNull().default(0),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    uniqueIndex("verification_codes_user_purpose_attempt_unique").on(
      table.userId,
      table.purpose,
      table.attemptHash,
    ),
  ],
);

/** A Google or GitHub identity linked to a user (by the provider's stable subject id, not the email). */
export const oauthAccounts = pgTable(
  "oauth_accounts",
  {
    provider: text("provider", { enum: ["google", "github"] }).notNull(),
    providerUserId: text("provider_user_id").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
  },
  (table) => [
    primaryKey({ columns: [table.provider, table.providerUserId] }),
    index("oauth_accounts_user_id_idx").on(table.userId),
  ],
);

/**
 * Fixed-window counters for throttling (per IP, per email). Kept in the database, not in process
 * memory, so every server process behind a load balancer shares the same limits.
 */
export const rateLimitBuckets = pgTable("rate_limit_buckets", {
  key: text("key").primaryKey(),
  hits: integer("hits").notNull(),
  windowStartedAt: timestamp("window_started_at", { withTimezone: true, mode: "date" }).notNull(),
});

/**
 * A pending invitation to join an organization: one per (organization, email), refreshed when the
 * address is invited again, deleted once accepted, declined or revoked (so it works once).
 */
export const invitations = pgTable(
  "invitations",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    permissions: jsonb("permissions").$type<StoredPermissions>().notNull(),
    invitedByUserId: uuid("invited_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [uniqueIndex("invitations_organization_email_unique").on(table.organizationId, table.email)],
);

/**
 * API keys: only the SHA-256 of the secret is stored (unique, so lookup is one index probe), plus the
 * last four characters for display. Deleting a key revokes it; the row stays for the request log.
 */
export const apiKeys = pgTable(
  "api_keys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    keyHash: text("key_hash").notNull(),
    lastFour: text("last_four").notNull(),
    createdByUserId: uuid("created_by_user_id").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    revokedAt: timestamp("revoked_at", { withTimezone: true, mode: "date" }),
    // The key's limits (issue 17); null means none, which is how every older key stays unlimited.
    allowedEndpoints: text("allowed_endpoints").array(),
    monthlySpendCapMicros: bigint("monthly_spend_cap_micros", { mode: "bigint" }),
    lifetimeSpendCapMicros: bigint("lifetime_spend_cap_micros", { mode: "bigint" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }),
    allowedIps: text("allowed_ips").array(),
    requestsPerMinute: integer("requests_per_minute"),
    /**
     * What the key has spent, kept while it has a spend cap: raised by the reservation's conditional
     * update (which enforces the caps), lowered by a refund, recomputed (from its daily rollup and its
     * open calls: decision 022) whenever its limits are set. `spent_month` is the UTC month ("2026-11") `spent_month_micros` counts.
     */
    spentMonth: text("spent_month"),
    spentMonthMicros: bigint("spent_month_micros", { mode: "bigint" }).notNull().default(sql`0`),
    spentLifetimeMicros: bigint("spent_lifetime_micros", { mode: "bigint" }).notNull().default(sql`0`),
  },
  (table) => [
    uniqueIndex("api_keys_key_hash_unique").on(table.keyHash),
    index("api_keys_project_id_idx").on(table.projectId),
  ],
);

export const LEDGER_ENTRY_KINDS = [
  "credit",
  "reservation",
  "refund",
  "settlement",
  "adjustment",
  // Money the card network takes back after a payment was credited, and gives back after a dispute.
  "payment-refund",
  "dispute",
  "dispute-reversal",
] as const;
export type LedgerEntryKind = (typeof LEDGER_ENTRY_KINDS)[number];

/** The kinds a feature call writes: each names its call by `request_id`, never by a text reference. */
export const CALL_LEDGER_ENTRY_KINDS = ["reservation", "settlement", "refund"] as const;
export type CallLedgerEntryKind = (typeof CALL_LEDGER_ENTRY_KINDS)[number];
/** The other kinds (payments, disputes, grants) name what they record by a text `reference`. */
export type ReferencedLedgerEntryKind = Exclude<LedgerEntryKind, CallLedgerEntryKind>;

/**
 * The append-only money ledger, in integer micro-dollars (signed: credits and refunds add, reservations
 * subtract, settlements record the end of a reservation). The organization's balance is the sum of its
 * entries, cached on the organization row in the same transaction.
 *
 * An entry names what it records in exactly one way (decision 022): a feature call's entries by the
 * call's `request_id` (a uuid, 16 bytes), every other entry by its text `reference` (`payment:<id>`…);
 * the check ties the form to the kind, so a call's entry cannot be written under a text reference. Each
 * form has its unique index, `(request_id, kind)` and `(kind, reference)`, so reserving, settling or
 * refunding the same call twice, or crediting the same payment twice, is impossible, not merely avoided.
 * `request_id` has no foreign key: the money stays whatever becomes of the request row. There is no
 * surrogate id: nothing ever looked an entry up by one, and its index was a fifth of the ledger's bytes.
 */
export const ledgerEntries = pgTable(
  "ledger_entries",
  {
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: LEDGER_ENTRY_KINDS }).notNull(),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    reference: text("reference"),
    createdAt: createdAt(),
    requestId: uuid("request_id"),
  },
  (table) => [
    uniqueIndex("ledger_entries_request_kind_unique")
      .on(table.requestId, table.kind)
      .where(sql`${table.requestId} is not null`),
    uniqueIndex("ledger_entries_kind_reference_unique")
      .on(table.kind, table.reference)
      .where(sql`${table.reference} is not null`),
    // The organization's entries (its ledger sum; deleting an organization cascades through it). The
    // organization alone, which B-tree deduplication stores as one key and a list of row pointers.
    index("ledger_entries_organization_idx").on(table.organizationId),
    // The sweeper's scan for reservations a crash left with neither a settlement nor a refund.
    index("ledger_entries_reservation_created_idx")
      .on(table.createdAt)
      .where(sql`${table.kind} = 'reservation'`),
    check(
      "ledger_entries_call_or_reference",
      sql`(${table.requestId} is not null) = (${table.kind} in (${sql.raw(
        CALL_LEDGER_ENTRY_KINDS.map((kind) => `'${kind}'`).join(", "),
      )})) and (${table.reference} is null) = (${table.requestId} is not null)`,
    ),
  ],
);

/** The organization's saved card: display details only, never the number. */
export const paymentMethods = pgTable("payment_methods", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
  providerPaymentMethodId: text("provider_payment_method_id").notNull(),
  brand: text("brand").notNull(),
  funding: text("funding").notNull(),
  last4: text("last4").notNull(),
  country: text("country"),
  expMonth: integer("exp_month").notNull(),
  expYear: integer("exp_year").notNull(),
  createdAt: createdAt(),
});

/** Per-organization payments-provider state (the Stripe customer). */
export const paymentAccounts = pgTable("payment_accounts", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
  customerId: text("customer_id").notNull(),
});

/**
 * The sandbox provider's setup intents: what Stripe keeps for us in stripe mode. The client secret is
 * stored hashed; the test card's behaviour decides how later charges go.
 */
export const sandboxSetupIntents = pgTable("sandbox_setup_intents", {
  id: text("id").primaryKey(),
  organizationId: uuid("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" }),
  clientSecretHash: text("client_secret_hash").notNull(),
  status: text("status", { enum: ["requires_payment_method", "succeeded"] }).notNull(),
  paymentMethodId: text("payment_method_id"),
  card: jsonb("card").$type<SandboxCard>(),
  createdAt: createdAt(),
});

export const PAYMENT_STATUSES = ["pending", "succeeded", "failed"] as const;

/** Every charge attempt (manual or automatic recharge), succeeded or not. */
export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    provider: text("provider", { enum: ["sandbox", "stripe"] }).notNull(),
    providerPaymentId: text("provider_payment_id"),
    kind: text("kind", { enum: ["manual", "auto"] }).notNull(),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    failureMessage: text("failure_message"),
    cardBrand: text("card_brand"),
    cardLast4: text("card_last4"),
    receiptUrl: text("receipt_url"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    uniqueIndex("payments_provider_payment_id_unique").on(table.provider, table.providerPaymentId),
    index("payments_organization_id_idx").on(table.organizationId, table.createdAt),
  ],
);

export const INVOICE_KINDS = ["invoice", "credit-note"] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/**
 * The billing documents, numbered from one sequence: an invoice for each payment credited (and for
 * disputed funds given back), a credit note (negative amount) for each refund or dispute that takes
 * money back. `reference` is the ledger entry's reference, so a document is issued exactly once per
 * entry. The billing and seller details are copied at issue time: a document never changes when the
 * organization or the seller edits its address later.
 */
export const invoices = pgTable(
  "invoices",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    number: serial("number").notNull(),
    kind: text("kind", { enum: INVOICE_KINDS }).notNull().default("invoice"),
    reference: text("reference").notNull(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "cascade" }),
    amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
    billing: jsonb("billing").$type<InvoiceSnapshot>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("invoices_reference_unique").on(table.reference),
    index("invoices_payment_id_idx").on(table.paymentId),
    uniqueIndex("invoices_number_unique").on(table.number),
    index("invoices_organization_id_idx").on(table.organizationId, table.createdAt),
  ],
);

/**
 * One-time links to an invoice's PDF: only the token's hash is kept, and opening the link deletes
 * the row, so a link works once and only until `expiresAt`.
 */
export const invoiceLinks = pgTable(
  "invoice_links",
  {
    tokenHash: text("token_hash").primaryKey(),
    invoiceId: uuid("invoice_id")
      .notNull()
      .references(() => invoices.id, { onDelete: "cascade" }),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("invoice_links_expires_at_idx").on(table.expiresAt)],
);

/**
 * Auto recharge: when a charge takes the balance below `threshold`, one recharge of `amount` runs.
 * `armed` makes that exactly one per crossing: the recharge disarms it with a conditional update, and
 * only a balance back at or above the threshold re-arms it.
 */
export const autoRechargeSettings = pgTable("auto_recharge_settings", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  enabled: boolean("enabled").notNull().default(false),
  thresholdMicros: bigint("threshold_micros", { mode: "bigint" }).notNull(),
  amountMicros: bigint("amount_micros", { mode: "bigint" }).notNull(),
  armed: boolean("armed").notNull().default(true),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * Every feature call, from the playground or the public API: what was asked (files as stored URLs,
 * body fields), what came back, what it cost, and its state. The history list reads it newest first
 * per project and endpoint, which the composite index serves without a sort.
 */
export const featureRequests = pgTable(
  "feature_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    userId: uuid("user_id").references(() => users.id, { onDelete: "set null" }),
    apiKeyId: uuid("api_key_id").references(() => apiKeys.id, { onDelete: "set null" }),
    endpoint: text("endpoint").notNull(),
    callType: text("call_type").notNull(),
    status: text("status", { enum: REQUEST_STATUSES }).notNull(),
    provider: text("provider").notNull(),
    /** Each upload field's stored file keys. */
    requestFiles: jsonb("request_files").$type<Record<string, string[]>>().notNull(),
    requestBody: jsonb("request_body").$type<Record<string, unknown>>().notNull(),
    responseFile: text("response_file"),
    /** A JSON result: a transcription, or a training's `{ identityId, status }`. */
    responseBody: jsonb("response_body").$type<FeatureResultBody>(),
    units: integer("units").notNull(),
    priceMicros: bigint("price_micros", { mode: "bigint" }).notNull(),
    errorMessage: text("error_message"),
    createdAt: createdAt(),
    completedAt: timestamp("completed_at", { withTimezone: true, mode: "date" }),
    deletedAt: timestamp("deleted_at", { withTimezone: true, mode: "date" }),
    /** The caller's address as the server saw it (TRUST_PROXY honoured), for the key's detail drawer. */
    clientIp: text("client_ip"),
    /** The AI Clone's training request a call uses (with `identity_id` in its body). */
    identityRequestId: uuid("identity_request_id"),
    /** The error code a failed or canceled call answers (a synchronous caller in another process reads it). */
    errorCode: text("error_code"),
    /**
     * The call queue (decision 019): the provider pool the call waits in, its fair-share tag (set once
     * its inputs are stored: a queued row without one is not yet claimable), when a slot started it, the
     * process running it and how long that process's hold lasts unless renewed.
     */
    queue: text("queue"),
    queueTag: bigint("queue_tag", { mode: "number" }),
    startedAt: timestamp("started_at", { withTimezone: true, mode: "date" }),
    runner: text("runner"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    /** A per-call webhook: where its events go and which (`start`, `completed`). */
    webhookUrl: text("webhook_url"),
    webhookEvents: jsonb("webhook_events").$type<string[]>(),
    /**
     * What the upstream platform charged for the run, when it says (or its model map states a price):
     * the operator's margin figures, never shown to customers.
     */
    upstreamCostMicros: bigint("upstream_cost_micros", { mode: "bigint" }),
    /** The compute time the upstream platform reported for the run. */
    upstreamComputeMs: integer("upstream_compute_ms"),
  },
  (table) => [
    // A key's spend (its caps, its column in the keys table) and its recent calls.
    index("feature_requests_api_key_idx").on(table.apiKeyId, table.createdAt),
    index("feature_requests_history_idx").on(table.projectId, table.endpoint, table.createdAt, table.id),
    // A project's calls in time order across features: CSV exports read it in keyset batches.
    index("feature_requests_project_created_idx").on(table.projectId, table.createdAt, table.id),
    // The Requests view: an organization's calls newest first, paged by the keyset (time, id), with the
    // selected projects and the filters checked on the rows the backward scan meets.
    index("feature_requests_organization_created_idx").on(table.organizationId, table.createdAt, table.id),
    // The same order for the calls that did not succeed, the Requests view's rare "Failed" and
    // "Canceled" filters: without it an organization with none reads its whole history to say so.
    index("feature_requests_organization_unsuccessful_idx")
      .on(table.organizationId, table.status, table.createdAt, table.id)
      .where(sql`${table.status} in ('error', 'canceled')`),
    // The sweeper's candidates: calls still queued or running (few at any time).
    index("feature_requests_open_idx")
      .on(table.createdAt)
      .where(sql`${table.status} in ('queued', 'generating')`),
    // A key's calls still queued or running: its spend is its rollup rows plus these (decision 022).
    index("feature_requests_open_key_idx")
      .on(table.apiKeyId, table.createdAt)
      .where(sql`${table.status} in ('queued', 'generating')`),
    // The queue's dispatch order within a pool, and an organization's newest tag in it (fair sharing).
    index("feature_requests_queue_idx")
      .on(table.queue, table.queueTag, table.createdAt, table.id)
      .where(sql`${table.status} = 'queued' and ${table.queueTag} is not null`),
    index("feature_requests_queue_organization_idx")
      .on(table.queue, table.organizationId, table.queueTag)
      .where(sql`${table.status} = 'queued'`),
  ],
);

/**
 * The call queue's slots (decision 019): a provider's capacity as rows, each free or holding the call
 * running in it. A pool shared by every process (a model server, a hosted API) has owner `*`; a
 * process's own pool (the builtin engine's worker threads) has the process's instance id as owner and
 * a lease the process renews, so the slots of a process that died can be found and removed. Taking a
 * slot is a conditional update with SKIP LOCKED, so no two calls ever hold one slot, whatever the
 * number of processes.
 */
export const providerSlots = pgTable(
  "provider_slots",
  {
    pool: text("pool").notNull(),
    owner: text("owner").notNull(),
    slot: integer("slot").notNull(),
    requestId: uuid("request_id"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
  },
  (table) => [
    primaryKey({ columns: [table.pool, table.owner, table.slot] }),
    uniqueIndex("provider_slots_request_idx").on(table.requestId),
  ],
);

/**
 * The usage rollup the home page reads: one row per project, endpoint, call type and UTC day, updated
 * in the transaction that settles each call, so statistics never scan the request log.
 */
export const usageDaily = pgTable(
  "usage_daily",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    endpoint: text("endpoint").notNull(),
    callType: text("call_type").notNull(),
    day: date("day", { mode: "string" }).notNull(),
    units: bigint("units", { mode: "number" }).notNull(),
    costMicros: bigint("cost_micros", { mode: "bigint" }).notNull(),
    calls: integer("calls").notNull(),
  },
  (table) => [primaryKey({ columns: [table.projectId, table.endpoint, table.callType, table.day] })],
);

/**
 * The usage rollup per API key and UTC day (the day the call was made, as in `usage_daily`: decision
 * 022), written by the statement that settles each call made with a key, so the usage API groups by key
 * and a key's spend is read without scanning the request log (decision 017). Console calls have no key and no row here: they are the
 * project's `usage_daily` total less its keys'. A revoked key keeps its rows and its name.
 */
export const usageDailyKeys = pgTable(
  "usage_daily_keys",
  {
    projectId: uuid("project_id")
      .notNull()
      .references(() => projects.id, { onDelete: "cascade" }),
    apiKeyId: uuid("api_key_id")
      .notNull()
      .references(() => apiKeys.id, { onDelete: "cascade" }),
    day: date("day", { mode: "string" }).notNull(),
    units: bigint("units", { mode: "number" }).notNull(),
    costMicros: bigint("cost_micros", { mode: "bigint" }).notNull(),
    calls: integer("calls").notNull(),
  },
  (table) => [
    // Project first: the usage API reads one project's range of days, a range scan of this key.
    primaryKey({ columns: [table.projectId, table.day, table.apiKeyId] }),
    // A key's spend, this month and all time (its list row, its details, the recount of its caps).
    index("usage_daily_keys_api_key_idx").on(table.apiKeyId, table.day),
  ],
);

/**
 * A durable job queue on the database (works on PGlite and PostgreSQL alike): a job is claimed with
 * `FOR UPDATE SKIP LOCKED` and a lease, so several workers share it and a crashed worker's job is
 * picked up again when its lease runs out.
 */
export const jobs = pgTable(
  "jobs",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    kind: text("kind").$type<JobKind>().notNull(),
    /** The payload of the job's kind (see JobPayloads). */
    payload: jsonb("payload").$type<JobPayload>().notNull(),
    status: text("status", { enum: ["queued", "running", "done", "failed"] })
      .notNull()
      .default("queued"),
    runAt: timestamp("run_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    leaseUntil: timestamp("lease_until", { withTimezone: true, mode: "date" }),
    /**
     * Which claim holds the lease: renewing it and finishing the job are conditional on it, so a
     * worker that lost the job to another (its lease ran out) can no longer touch it.
     */
    leaseToken: uuid("lease_token"),
    /** Set for jobs that must exist once (an alert mail per event and recipient): a second insert is a no-op. */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
  },
  (table) => [
    index("jobs_ready_idx").on(table.status, table.runAt),
    uniqueIndex("jobs_dedupe_key_unique").on(table.dedupeKey),
  ],
);

export const IDEMPOTENCY_STATUSES = ["running", "done"] as const;

/**
 * Feature calls made with an `Idempotency-Key` (issue 17): one row per (caller, key), claimed by the
 * first call before it reserves anything, so concurrent duplicates run once; the answer is stored
 * when the call ends and replayed to retries until `expires_at`.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** Whose key it is: `key:<api key id>` or `user:<user id>:<project id>`. */
    scope: text("scope").notNull(),
    key: text("key").notNull(),
    /** SHA-256 of the method, path, fields and file contents. */
    requestHash: text("request_hash").notNull(),
    status: text("status", { enum: IDEMPOTENCY_STATUSES }).notNull(),
    responseStatus: integer("response_status"),
    /** The answer replayed to retries: a feature call's. */
    /** The answer replayed: a feature call's (200), or an asynchronous call's status (202). */
    responseBody: jsonb("response_body").$type<FeatureCallResponse | RequestDetail>(),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [
    primaryKey({ columns: [table.scope, table.key] }),
    index("idempotency_keys_expires_at_idx").on(table.expiresAt),
  ],
);
/**
 * A user's authenticator-app secret (TOTP, RFC 6238). Present but unconfirmed while enrolling; in force
 * once a first code confirms it. `lastUsedStep` is the time step of the last accepted code: a code is
 * accepted only for a later step, with a conditional update, so a code cannot be replayed in its window.
 */
export const userTotp = pgTable("user_totp", {
  userId: uuid("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  /**
   * Sealed with AES-256-GCM under a key derived from APP_SECRET (`v1:<iv>:<tag>:<ciphertext>`, see
   * modules/auth/totp-secret-box.ts): the server must compute codes from it, so it is encrypted, not
   * hashed. Rows from before that hold the base32 secret until its next accepted code.
   */
  secret: text("secret").notNull(),
  confirmedAt: timestamp("confirmed_at", { withTimezone: true, mode: "date" }),
  lastUsedStep: bigint("last_used_step", { mode: "number" }),
  createdAt: createdAt(),
});

/** Single-use recovery codes of a user with two-factor sign-in: only SHA-256 hashes are kept. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("code_hash").notNull(),
    createdAt: createdAt(),
  },
  (table) => [uniqueIndex("recovery_codes_user_code_unique").on(table.userId, table.codeHash)],
);

/**
 * A sign-in that passed its first factor (password, Google, GitHub) and waits for the second: the
 * browser holds a random token in a short-lived cookie, the database its SHA-256. Completing it deletes
 * the row in the statement that claims it, so it creates one session at most.
 */
export const pendingSignIns = pgTable(
  "pending_sign_ins",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    tokenHash: text("token_hash").notNull(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    rememberMe: boolean("remember_me").notNull().default(false),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [uniqueIndex("pending_sign_ins_token_hash_unique").on(table.tokenHash)],
);

/**
 * A passkey (WebAuthn credential) of a user: a discoverable credential whose private key never leaves
 * the authenticator; we keep its id, public key (COSE, base64url) and signature counter.
 */
export const passkeys = pgTable(
  "passkeys",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: uuid("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: text("name").notNull(),
    /** base64url, as the browser reports it. */
    credentialId: text("credential_id").notNull(),
    publicKey: text("public_key").notNull(),
    counter: bigint("counter", { mode: "number" }).notNull().default(0),
    /** Transport hints as the browser reported them; handed back as they were. */
    transports: jsonb("transports")
      .$type<NonNullable<WebAuthnCredential["transports"]>>()
      .notNull()
      .default([]),
    createdAt: createdAt(),
    lastUsedAt: timestamp("last_used_at", { withTimezone: true, mode: "date" }),
    /**
     * SHA-256 of the token in the passkey-added mail's removal link (decision 020); null for passkeys
     * added before the mail existed.
     */
    removalTokenHash: text("removal_token_hash"),
  },
  (table) => [
    uniqueIndex("passkeys_credential_id_unique").on(table.credentialId),
    uniqueIndex("passkeys_removal_token_hash_unique").on(table.removalTokenHash),
    index("passkeys_user_id_idx").on(table.userId),
  ],
);

/**
 * A WebAuthn ceremony's challenge: issued with the options, spent (deleted) by the one response that
 * answers it, so a signed response cannot be replayed. Registration challenges belong to a user.
 */
export const webauthnChallenges = pgTable(
  "webauthn_challenges",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    challenge: text("challenge").notNull(),
    purpose: text("purpose", { enum: ["register", "authenticate"] }).notNull(),
    userId: uuid("user_id").references(() => users.id, { onDelete: "cascade" }),
    createdAt: createdAt(),
    expiresAt: timestamp("expires_at", { withTimezone: true, mode: "date" }).notNull(),
  },
  (table) => [uniqueIndex("webauthn_challenges_challenge_unique").on(table.challenge)],
);

/**
 * What happened in an organization that webhooks and alert mails report, written in the transaction
 * of the change itself, so an event exists exactly when its change committed. Its id is the
 * `webhook-id` receivers deduplicate by.
 */
export const organizationEvents = pgTable(
  "organization_events",
  {
    id: text("id").primaryKey(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    type: text("type").notNull(),
    payload: jsonb("payload").$type<WebhookEventBody>().notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("organization_events_organization_idx").on(table.organizationId, table.createdAt),
    // The retention sweep deletes by age across organizations.
    index("organization_events_created_idx").on(table.createdAt),
  ],
);

/**
 * A receiver of an organization's events. The signing secret is kept as such (signing needs it) and
 * shown once, at creation. `failingSince` is the first failed delivery since the last success: a day
 * of that disables the endpoint.
 */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: jsonb("events").$type<WebhookEventType[]>().notNull(),
    secret: text("secret").notNull(),
    enabled: boolean("enabled").notNull().default(true),
    disabledReason: text("disabled_reason"),
    failingSince: timestamp("failing_since", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [index("webhook_endpoints_organization_idx").on(table.organizationId)],
);

/**
 * The secret that signs an organization's per-call webhooks (Standard Webhooks), made the first time
 * it is needed and shown on the Webhooks page: per-call webhooks have no endpoint of their own to hold
 * one (decision 019).
 */
export const callWebhookSecrets = pgTable("call_webhook_secrets", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  createdAt: createdAt(),
});

export const WEBHOOK_DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

/** One event on its way to one endpoint, with the outcome of its latest try (the delivery log). */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    /** The organization's endpoint it goes to; null for a per-call webhook (`url` and `requestId`). */
    endpointId: uuid("endpoint_id").references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    /** A per-call webhook: the call whose `webhook` field named `url`. */
    requestId: uuid("request_id").references(() => featureRequests.id, { onDelete: "cascade" }),
    url: text("url"),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    /** The signed body, fixed when the delivery is created so every retry sends the same bytes. */
    body: text("body").notNull(),
    status: text("status", { enum: WEBHOOK_DELIVERY_STATUSES }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    responseStatus: integer("response_status"),
    responseBody: text("response_body"),
    durationMs: integer("duration_ms"),
    lastAttemptAt: timestamp("last_attempt_at", { withTimezone: true, mode: "date" }),
    nextAttemptAt: timestamp("next_attempt_at", { withTimezone: true, mode: "date" }),
    createdAt: createdAt(),
  },
  (table) => [
    index("webhook_deliveries_endpoint_idx").on(table.endpointId, table.createdAt),
    index("webhook_deliveries_request_idx").on(table.requestId).where(sql`${table.requestId} is not null`),
    index("webhook_deliveries_created_idx").on(table.createdAt),
  ],
);

/**
 * The Payments page's alerts. `lowBalanceArmed` makes the low-balance alert once per crossing (a
 * conditional update disarms it; a balance back at or above the threshold re-arms it);
 * `budgetAlertedPercent` is the highest budget share already reported in `budgetMonth` (YYYY-MM).
 */
export const alertSettings = pgTable("alert_settings", {
  organizationId: uuid("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  lowBalanceMicros: bigint("low_balance_micros", { mode: "bigint" }),
  lowBalanceArmed: boolean("low_balance_armed").notNull().default(true),
  monthlyBudgetMicros: bigint("monthly_budget_micros", { mode: "bigint" }),
  budgetHardStop: boolean("budget_hard_stop").notNull().default(false),
  budgetMonth: text("budget_month"),
  budgetAlertedPercent: integer("budget_alerted_percent").notNull().default(0),
  updatedAt: timestamp("updated_at", { withTimezone: true, mode: "date" }).notNull().defaultNow(),
});

/**
 * One row per state change of an organization, written in the change's own transaction. Append-only:
 * the code has no update or delete path and a trigger (migration `audit_log`) refuses both. No foreign
 * keys on the actor or target: a cascade or `set null` would be an update the trigger must refuse, and
 * the entry has to outlive what it names.
 */
export const auditLog = pgTable(
  "audit_log",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    organizationId: uuid("organization_id").notNull(),
    /** The signed-in user who made the change; null for an API key or the system (webhooks, timers). */
    actorUserId: uuid("actor_user_id"),
    actorApiKeyId: uuid("actor_api_key_id"),
    /**
     * The actor's name when the entry was written (the user's first and last name, or the key's name):
     * history reads as it happened, whatever the user or key is called later. Null for the system.
     */
    actorName: text("actor_name"),
    /** Dotted `<target>.<verb>`, one of the contract's AUDIT_ACTIONS. */
    action: text("action").notNull(),
    targetType: text("target_type").notNull(),
    targetId: text("target_id"),
    /** The changed fields before and after (never secrets); null when nothing but the fact is kept. */
    changes: jsonb("changes").$type<{ before?: Record<string, unknown>; after?: Record<string, unknown> }>(),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (table) => [
    // The page and the export read newest first by (created_at, id) keyset within one organization.
    index("audit_log_organization_time").on(table.organizationId, table.createdAt.desc(), table.id.desc()),
  ],
);
