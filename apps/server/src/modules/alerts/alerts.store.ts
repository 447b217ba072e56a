import { and, eq, gte, isNull, lt, type SQL, type SQLWrapper, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { alertSettings, organizations, projects, usageDaily } from "../../db/schema";

/** Data access of the alerts module: the organization's alert row and the month's spend it compares. */

export type AlertSettingsRow = typeof alertSettings.$inferSelect;
export type AlertSettingsValues = Omit<typeof alertSettings.$inferInsert, "organizationId">;

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

export async function findAlertSettings(
  db: Executor,
  organizationId: string,
): Promise<AlertSettingsRow | undefined> {
  const [row] = await db.select().from(alertSettings).where(eq(alertSettings.organizationId, organizationId));
  return row;
}

export async function upsertAlertSettings(
  db: Executor,
  organizationId: string,
  values: AlertSettingsValues,
): Promise<void> {
  await db
    .insert(alertSettings)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: alertSettings.organizationId, set: values });
}

/** Whether the organization set any alert (a read the call's settlement folds into its statement). */
export const alertsConfigured = (organizationId: string): SQL =>
  sql`exists (select 1 from ${alertSettings} where ${alertSettings.organizationId} = ${organizationId})`;

/**
 * Whether the budget's hard stop refuses calls now: on, and this month's settled spend plus the price
 * of the calls still in flight at or above the budget (`prism_budget_reached`, migration 0019). An
 * expression, so the admission read and the reservation's statement carry it without a round trip.
 * Calls in flight count because the budget is checked when a call is reserved, not when it settles:
 * counting settled calls only, ten calls fired together against a budget for five all ran.
 */
export function budgetReached(organizationId: string | SQLWrapper, at = new Date()): SQL<boolean> {
  const { firstDay, nextFirstDay } = monthOf(at);
  return sql<boolean>`prism_budget_reached(${organizationId}::uuid, ${firstDay}::date, ${nextFirstDay}::date)`;
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

/** Whether the organization has an alert row at all: one indexed read. */
export async function hasAlertSettings(tx: Executor, organizationId: string): Promise<boolean> {
  const [configured] = await tx
    .select({ organizationId: alertSettings.organizationId })
    .from(alertSettings)
    .where(eq(alertSettings.organizationId, organizationId));
  return configured !== undefined;
}

/**
 * Disarms the low-balance alert when it is armed and the balance is below its threshold, returning
 * the threshold crossed; of concurrent callers exactly one gets it.
 */
export async function disarmLowBalanceBelowThreshold(
  tx: Executor,
  organizationId: string,
): Promise<bigint | null | undefined> {
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
  return low?.threshold;
}

export async function findOrganizationNameAndBalance(tx: Executor, organizationId: string) {
  const [organization] = await tx
    .select({ name: organizations.name, balance: organizations.balanceMicros })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization;
}

export async function findOrganizationName(tx: Executor, organizationId: string) {
  const [organization] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, organizationId));
  return organization;
}

/** The budget and the share of it reported this month (the row's month and highest share reported). */
export async function findBudgetShareState(tx: Executor, organizationId: string) {
  const [row] = await tx
    .select({
      budget: alertSettings.monthlyBudgetMicros,
      month: alertSettings.budgetMonth,
      alerted: alertSettings.budgetAlertedPercent,
    })
    .from(alertSettings)
    .where(eq(alertSettings.organizationId, organizationId));
  return row;
}

/**
 * Records `percent` as this month's highest reported share, only if the row still holds what was
 * `read` (a compare-and-set): of concurrent charges exactly one claims a share. Answers the hard stop
 * when this call claimed it.
 */
export async function claimBudgetShare(
  tx: Executor,
  organizationId: string,
  input: {
    read: { budget: bigint | null; month: string | null; alerted: number };
    month: string;
    percent: number;
  },
): Promise<{ hardStop: boolean } | undefined> {
  const { read } = input;
  const [claimed] = await tx
    .update(alertSettings)
    .set({ budgetMonth: input.month, budgetAlertedPercent: input.percent })
    .where(
      and(
        eq(alertSettings.organizationId, organizationId),
        read.budget === null
          ? isNull(alertSettings.monthlyBudgetMicros)
          : eq(alertSettings.monthlyBudgetMicros, read.budget),
        read.month === null ? isNull(alertSettings.budgetMonth) : eq(alertSettings.budgetMonth, read.month),
        eq(alertSettings.budgetAlertedPercent, read.alerted),
      ),
    )
    .returning({ hardStop: alertSettings.budgetHardStop });
  return claimed;
}
