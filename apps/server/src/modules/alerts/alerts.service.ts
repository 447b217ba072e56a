import {
  type AlertSettings,
  BALANCE_DECIMALS,
  BUDGET_ALERT_PERCENTS,
  formatMicros,
  microsToUsd,
  usdToMicros,
} from "@prism/contract";
import { and, eq, gte, isNull, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { alertSettings, organizations, projects, usageDaily } from "../../db/schema";
import { organizationAlertMail } from "../../providers/mail/templates";
import { changedFields, recordAudit } from "../audit/audit.store";
import { emitEvent, paymentsRecipients, queueAlertMails } from "../events/events.service";

/** The UTC month of `at` as YYYY-MM, and its first day and the next month's first day. */
export function monthOf(at = new Date()) {
  const start = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), 1));
  const next = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1));
  return {
    month: start.toISOString().slice(0, 7),
    firstDay: start.toISOString().slice(0, 10),
    nextFirstDay: next.toISOString().slice(0, 10),
  };
}

/** What the organization's calls cost this UTC month, from the daily rollup (never the request log). */
export async function monthSpendMicros(
  db: Executor,
  organizationId: string,
  at = new Date(),
): Promise<bigint> {
  const { firstDay, nextFirstDay } = monthOf(at);
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${usageDaily.costMicros}), 0)` })
    .from(usageDaily)
    .innerJoin(projects, eq(projects.id, usageDaily.projectId))
    .where(
      and(
        eq(projects.organizationId, organizationId),
        gte(usageDaily.day, firstDay),
        lt(usageDaily.day, nextFirstDay),
      ),
    );
  return BigInt(row?.total ?? 0);
}

const usd = (micros: bigint) => formatMicros(micros, BALANCE_DECIMALS);

export async function getAlerts(db: Executor, organizationId: string) {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.organizationId, organizationId));
  return {
    lowBalance: row?.lowBalanceMicros != null ? microsToUsd(row.lowBalanceMicros) : null,
    monthlyBudget: row?.monthlyBudgetMicros != null ? microsToUsd(row.monthlyBudgetMicros) : null,
    budgetHardStop: row?.budgetHardStop ?? false,
    monthSpend: microsToUsd(await monthSpendMicros(db, organizationId)),
  };
}

/**
 * Saves the alerts. A changed threshold is armed again (the next crossing below it alerts); a changed
 * budget starts its 50/80/100 % alerts over, since they are shares of the new amount.
 */
export async function updateAlerts(
  db: Executor,
  organizationId: string,
  input: AlertSettings,
): Promise<void> {
  const lowBalanceMicros = input.lowBalance === null ? null : usdToMicros(input.lowBalance);
  const monthlyBudgetMicros = input.monthlyBudget === null ? null : usdToMicros(input.monthlyBudget);
  const [current] = await db
    .select()
    .from(alertSettings)
    .where(eq(alertSettings.organizationId, organizationId));
  const values = {
    lowBalanceMicros,
    monthlyBudgetMicros,
    budgetHardStop: input.budgetHardStop,
    updatedAt: new Date(),
    ...(current?.lowBalanceMicros !== lowBalanceMicros ? { lowBalanceArmed: true } : {}),
    ...(current?.monthlyBudgetMicros !== monthlyBudgetMicros
      ? { budgetAlertedPercent: 0, budgetMonth: null }
      : {}),
  };
  await db
    .insert(alertSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: alertSettings.organizationId, set: values });
  const asSaved = (settings: { low: bigint | null; budget: bigint | null; hardStop: boolean }) => ({
    lowBalance: settings.low === null ? null : microsToUsd(settings.low),
    monthlyBudget: settings.budget === null ? null : microsToUsd(settings.budget),
    budgetHardStop: settings.hardStop,
  });
  await recordAudit(db, {
    organizationId,
    action: "alerts.updated",
    target: { type: "organization", id: organizationId },
    ...changedFields(
      asSaved({
        low: current?.lowBalanceMicros ?? null,
        budget: current?.monthlyBudgetMicros ?? null,
        hardStop: current?.budgetHardStop ?? false,
      }),
      asSaved({ low: lowBalanceMicros, budget: monthlyBudgetMicros, hardStop: input.budgetHardStop }),
    ),
  });
}

/** Whether the organization set any alert (a read the call's settlement folds into its statement). */
export const alertsConfigured = (organizationId: string): SQL =>
  sql`exists (select 1 from ${alertSettings} where ${alertSettings.organizationId} = ${organizationId})`;

/**
 * Whether the budget's hard stop refuses calls now: on, and this month's spend at or above the budget.
 * An expression, so the admission read and the reservation's statement carry it without a round trip.
 */
export function budgetReached(organizationId: string | SQLWrapper, at = new Date()): SQL<boolean> {
  const { firstDay, nextFirstDay } = monthOf(at);
  return sql<boolean>`exists (select 1 from ${alertSettings} budget
    where budget.organization_id = ${organizationId} and budget.budget_hard_stop
      and budget.monthly_budget_micros is not null
      and budget.monthly_budget_micros <= (
        select coalesce(sum(${usageDaily.costMicros}), 0) from ${usageDaily}
          inner join ${projects} on ${projects.id} = ${usageDaily.projectId}
        where ${projects.organizationId} = ${organizationId}
          and ${usageDaily.day} >= ${firstDay} and ${usageDaily.day} < ${nextFirstDay}))`;
}

const balanceOf = (organizationId: string) =>
  sql`(select ${organizations.balanceMicros} from ${organizations} where ${organizations.id} = ${organizationId})`;

/**
 * Re-arms the low-balance alert once the balance is back at or above its threshold (a recharge, a
 * refund), so the next crossing below alerts again.
 */
export async function rearmLowBalance(tx: Executor, organizationId: string): Promise<void> {
  await tx
    .update(alertSettings)
    .set({ lowBalanceArmed: true })
    .where(
      and(
        eq(alertSettings.organizationId, organizationId),
        eq(alertSettings.lowBalanceArmed, false),
        sql`${alertSettings.lowBalanceMicros} <= ${balanceOf(organizationId)}`,
      ),
    );
}

/**
 * Runs in the transaction that charged a call. Each alert is decided by one conditional update of the
 * organization's alert row, so of any number of concurrent charges, in any number of processes,
 * exactly one reports a crossing: below the low-balance threshold (then disarmed until the balance is
 * back), and each budget share of the month.
 */
export async function checkSpendAlerts(tx: Executor, organizationId: string): Promise<void> {
  // Most organizations set no alerts: one indexed read, and the charge's transaction goes on.
  const [configured] = await tx
    .select({ organizationId: alertSettings.organizationId })
    .from(alertSettings)
    .where(eq(alertSettings.organizationId, organizationId));
  if (!configured) return;
  await rearmLowBalance(tx, organizationId);
  const [low] = await tx
    .update(alertSettings)
    .set({ lowBalanceArmed: false })
    .where(
      and(
        eq(alertSettings.organizationId, organizationId),
        eq(alertSettings.lowBalanceArmed, true),
        sql`${alertSettings.lowBalanceMicros} > ${balanceOf(organizationId)}`,
      ),
    )
    .returning({ threshold: alertSettings.lowBalanceMicros });
  const threshold = low?.threshold;
  if (threshold != null) {
    const [organization] = await tx
      .select({ name: organizations.name, balance: organizations.balanceMicros })
      .from(organizations)
      .where(eq(organizations.id, organizationId));
    const balance = organization?.balance ?? 0n;
    const eventId = await emitEvent(tx, organizationId, "balance.low", {
      organization_id: organizationId,
      balance: microsToUsd(balance),
      threshold: microsToUsd(threshold),
    });
    await queueAlertMails(tx, {
      eventId,
      recipients: await paymentsRecipients(tx, organizationId),
      compose: (to) =>
        organizationAlertMail(to, `Low balance for ${organization?.name ?? "your organization"}`, [
          `The balance of "${organization?.name}" is ${usd(balance)}, below your alert threshold of ${usd(threshold)}.`,
          "Recharge on the Payments page of the console so calls keep working.",
        ]),
    });
  }

  await reportBudgetShares(tx, organizationId);
}

/**
 * Reports each budget share (50, 80, 100 %) the month's spend has reached and nobody reported yet, each
 * with its own event and mail: one call can jump past several shares at once, and each is said. The
 * row's month and highest reported share are claimed by a compare-and-set on the values read, so of
 * concurrent charges exactly one reports a given share; one that lost the race reads again and
 * reports what is still left. It can only lose to a transaction that committed a change to the row
 * (an update waits for the holder of the row's lock), so the loop ends.
 */
async function reportBudgetShares(tx: Executor, organizationId: string): Promise<void> {
  const { month } = monthOf();
  const readSettings = async () => {
    const [row] = await tx
      .select({
        budget: alertSettings.monthlyBudgetMicros,
        month: alertSettings.budgetMonth,
        alerted: alertSettings.budgetAlertedPercent,
      })
      .from(alertSettings)
      .where(eq(alertSettings.organizationId, organizationId));
    return row;
  };
  let settings = await readSettings();
  if (!settings?.budget) return;
  const spend = await monthSpendMicros(tx, organizationId);
  while (settings?.budget) {
    const { budget } = settings;
    const reportedThisMonth = settings.month === month ? settings.alerted : 0;
    const reached = BUDGET_ALERT_PERCENTS.filter(
      (percent) => percent > reportedThisMonth && spend * 100n >= budget * BigInt(percent),
    );
    const highest = reached.at(-1);
    if (highest === undefined) return;
    const [claimed] = await tx
      .update(alertSettings)
      .set({ budgetMonth: month, budgetAlertedPercent: highest })
      .where(
        and(
          eq(alertSettings.organizationId, organizationId),
          eq(alertSettings.monthlyBudgetMicros, budget),
          settings.month === null
            ? isNull(alertSettings.budgetMonth)
            : eq(alertSettings.budgetMonth, settings.month),
          eq(alertSettings.budgetAlertedPercent, settings.alerted),
        ),
      )
      .returning({ hardStop: alertSettings.budgetHardStop });
    if (claimed) {
      await queueBudgetAlerts(tx, {
        organizationId,
        month,
        percents: reached,
        spend,
        budget,
        hardStop: claimed.hardStop,
      });
      return;
    }
    settings = await readSettings();
  }
}

/** One `budget.threshold` event and its mails per share, in ascending order. */
async function queueBudgetAlerts(
  tx: Executor,
  input: {
    organizationId: string;
    month: string;
    percents: readonly (typeof BUDGET_ALERT_PERCENTS)[number][];
    spend: bigint;
    budget: bigint;
    hardStop: boolean;
  },
): Promise<void> {
  const [organization] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, input.organizationId));
  const recipients = await paymentsRecipients(tx, input.organizationId);
  for (const percent of input.percents) {
    const eventId = await emitEvent(tx, input.organizationId, "budget.threshold", {
      organization_id: input.organizationId,
      month: input.month,
      percent,
      spend: microsToUsd(input.spend),
      budget: microsToUsd(input.budget),
    });
    await queueAlertMails(tx, {
      eventId,
      recipients,
      compose: (to) =>
        organizationAlertMail(
          to,
          `${organization?.name ?? "Your organization"} reached ${percent}% of its monthly budget`,
          [
            `"${organization?.name}" spent ${usd(input.spend)} this month, ${percent}% of its ${usd(input.budget)} budget.`,
            ...(percent >= 100 && input.hardStop
              ? [
                  "Feature calls are refused until next month or until the budget is raised on the Payments page.",
                ]
              : []),
          ],
        ),
    });
  }
}
