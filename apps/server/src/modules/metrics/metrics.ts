import type { Feature } from "@prism/contract";
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";
import type { DatabaseHandle } from "../../db/client";
import {
  type FeatureProvider,
  ProviderError,
  type ProviderInput,
} from "../../providers/inference/feature-provider";
import type { Mailer } from "../../providers/mail/mailer";
import { summarizeJobQueue } from "../jobs/job-queue.store";

/**
 * What a webhook delivery attempt came to, as `prism_webhook_deliveries_total` labels it: the delivery
 * log's own words (a delivery row ends `succeeded` or `failed`), named once for the label and its help.
 */
export const WEBHOOK_DELIVERY_OUTCOMES = ["succeeded", "failed"] as const;
export type WebhookDeliveryOutcome = (typeof WEBHOOK_DELIVERY_OUTCOMES)[number];

/** Seconds: from a bare route (a millisecond) to a model call near its timeout (minutes). */
const DURATION_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

/**
 * What an operator watches, in the Prometheus text format. One registry per app (tests build many),
 * no module-level state. Gauges that read the database are refreshed when /metrics is scraped.
 */
export interface Metrics {
  registry: Registry;
  httpRequestDuration: Histogram<"method" | "route" | "status">;
  featureCalls: Counter<"feature" | "provider" | "outcome">;
  featureCallDuration: Histogram<"feature" | "provider" | "outcome">;
  /** What the upstream platform charged for the calls that report it, and what we billed for them. */
  upstreamCost: Counter<"feature" | "provider">;
  upstreamBilled: Counter<"feature" | "provider">;
  upstreamCompute: Counter<"feature" | "provider">;
  sweeperRefunds: Counter;
  mailDeliveries: Counter<"transport" | "outcome">;
  /** Incremented by webhook delivery (the job queue's webhook handler) per attempt. */
  webhookDeliveries: Counter<"outcome">;
  /** Reads the job queue and the pool into their gauges; called before each scrape. */
  refresh(): Promise<void>;
}

export function createMetrics(database: DatabaseHandle): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const httpRequestDuration = new Histogram({
    name: "prism_http_request_duration_seconds",
    help: "HTTP requests by route pattern, method and status",
    labelNames: ["method", "route", "status"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const featureCalls = new Counter({
    name: "prism_feature_calls_total",
    help: "Model runs of feature calls by feature, provider and outcome (ok, failed, timeout, unavailable, invalid-input, error)",
    labelNames: ["feature", "provider", "outcome"] as const,
    registers: [registry],
  });
  const featureCallDuration = new Histogram({
    name: "prism_feature_call_duration_seconds",
    help: "How long the provider took to run a feature call",
    labelNames: ["feature", "provider", "outcome"] as const,
    buckets: DURATION_BUCKETS,
    registers: [registry],
  });
  const upstreamCost = new Counter({
    name: "prism_upstream_cost_dollars_total",
    help: "What hosted platforms charged for calls that succeeded, by feature and provider (the platform's figure or the model map's published price)",
    labelNames: ["feature", "provider"] as const,
    registers: [registry],
  });
  const upstreamBilled = new Counter({
    name: "prism_upstream_billed_dollars_total",
    help: "What customers were billed for the same calls as prism_upstream_cost_dollars_total: the margin is billed minus cost",
    labelNames: ["feature", "provider"] as const,
    registers: [registry],
  });
  const upstreamCompute = new Counter({
    name: "prism_upstream_compute_seconds_total",
    help: "Compute time hosted platforms reported for calls that succeeded, by feature and provider",
    labelNames: ["feature", "provider"] as const,
    registers: [registry],
  });
  const sweeperRefunds = new Counter({
    name: "prism_sweeper_refunds_total",
    help: "Calls abandoned by a crashed process that the sweeper refunded",
    registers: [registry],
  });
  const mailDeliveries = new Counter({
    name: "prism_mail_deliveries_total",
    help: "Mails handed to the transport, by transport (smtp, outbox) and outcome (sent, failed)",
    labelNames: ["transport", "outcome"] as const,
    registers: [registry],
  });
  const webhookDeliveries = new Counter({
    name: "prism_webhook_deliveries_total",
    help: `Webhook delivery attempts by outcome (${WEBHOOK_DELIVERY_OUTCOMES.join(", ")})`,
    labelNames: ["outcome"] as const,
    registers: [registry],
  });
  const jobQueueDepth = new Gauge({
    name: "prism_job_queue_jobs",
    help: "Jobs in the queue by kind and state: due (waiting for a worker), scheduled (later), running",
    labelNames: ["kind", "state"] as const,
    registers: [registry],
  });
  const jobQueueAge = new Gauge({
    name: "prism_job_queue_oldest_due_seconds",
    help: "How long the oldest due job of each kind has waited for a worker",
    labelNames: ["kind"] as const,
    registers: [registry],
  });
  const databasePool = new Gauge({
    name: "prism_db_pool_connections",
    help: "PostgreSQL pool connections by state (total, idle, waiting clients, max); absent on PGlite",
    labelNames: ["state"] as const,
    registers: [registry],
  });

  const refresh = async () => {
    const rows = await summarizeJobQueue(database.db);
    // Kinds whose jobs are all done drop out of the answer: they read as zero, not as stale values.
    jobQueueDepth.reset();
    jobQueueAge.reset();
    for (const row of rows) {
      jobQueueDepth.set({ kind: row.kind, state: "due" }, Number(row.due));
      jobQueueDepth.set({ kind: row.kind, state: "scheduled" }, Number(row.scheduled));
      jobQueueDepth.set({ kind: row.kind, state: "running" }, Number(row.running));
      jobQueueAge.set({ kind: row.kind }, Number(row.oldest));
    }
    const pool = database.poolStats();
    if (pool) {
      databasePool.set({ state: "total" }, pool.total);
      databasePool.set({ state: "idle" }, pool.idle);
      databasePool.set({ state: "waiting" }, pool.waiting);
      databasePool.set({ state: "max" }, pool.max);
    }
  };

  return {
    registry,
    httpRequestDuration,
    featureCalls,
    featureCallDuration,
    upstreamCost,
    upstreamBilled,
    upstreamCompute,
    sweeperRefunds,
    mailDeliveries,
    webhookDeliveries,
    refresh,
  };
}

/** The provider, with every run counted and timed by feature, provider and outcome. */
export function measuredProvider<P extends FeatureProvider>(
  provider: P,
  metrics: Metrics,
  billedMicros?: (feature: Feature, input: ProviderInput) => bigint,
): P {
  const run: FeatureProvider["run"] = async (feature, input, signal) => {
    const labels = { feature: feature.id, provider: provider.name };
    const stopTimer = metrics.featureCallDuration.startTimer(labels);
    let outcome = "ok";
    try {
      const output = await provider.run(feature, input, signal);
      const { upstream } = output;
      if (upstream?.costMicros !== undefined) {
        metrics.upstreamCost.inc(labels, Number(upstream.costMicros) / 1_000_000);
        if (billedMicros)
          metrics.upstreamBilled.inc(labels, Number(billedMicros(feature, input)) / 1_000_000);
      }
      if (upstream?.computeMs !== undefined) metrics.upstreamCompute.inc(labels, upstream.computeMs / 1000);
      return output;
    } catch (error) {
      outcome = error instanceof ProviderError ? error.code : "error";
      throw error;
    } finally {
      stopTimer({ outcome });
      metrics.featureCalls.inc({ ...labels, outcome });
    }
  };
  // A proxy rather than a copy: providers carry more than the interface (a model server's training
  // status), and those must keep working on the measured provider.
  return new Proxy(provider, {
    get(target, property) {
      if (property === "run") return run;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The mailer, with every delivery counted by transport and outcome. */
export function measuredMailer(mailer: Mailer, metrics: Metrics): Mailer {
  return {
    kind: mailer.kind,
    send: async (message) => {
      try {
        await mailer.send(message);
        metrics.mailDeliveries.inc({ transport: mailer.kind, outcome: "sent" });
      } catch (error) {
        metrics.mailDeliveries.inc({ transport: mailer.kind, outcome: "failed" });
        throw error;
      }
    },
  };
}
