import {
  type AlertSettings,
  BALANCE_DECIMALS,
  BUDGET_ALERT_PERCENTS,
  formatMicros,
  microsToUsd,
  usdToMicros,
} from "@prism/contract";
import type { Database, Executor } from "../../db/client";
import { organizationAlertMail, quotedName } from "../../providers/mail/templates";
import { changedFields, recordAudit } from "../audit/audit.store";
import { emitEvent, paymentsRecipients, queueAlertMails } from "../events/events.service";
import {
  claimBudgetShare,
  disarmLowBalanceBelowThreshold,
  findAlertSettings,
  findBudgetShareState,
  findOrganizationName,
  findOrganizationNameAndBalance,
  hasAlertSettings,
  monthOf,
  monthSpendMicros,
  rearmLowBalance,
  upsertAlertSettings,
} from "./alerts.store";

/** The organization as an alert mail names it: its name in quotes, or "your organization" when gone. */
const organizationLabel = (name: string | undefined) =>
  name === undefined ? "your organization" : quotedName(name);

const usd = (micros: bigint) => formatMicros(micros, BALANCE_DECIMALS);

export async function getAlerts(db: Executor, organizationId: string) {
  const row = await findAlertSettings(db, organizationId);
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
  db: Database,
  organizationId: string,
  input: AlertSettings,
): Promise<void> {
  await db.transaction((tx) => saveAlerts(tx, organizationId, input));
}

async function saveAlerts(tx: Executor, organizationId: string, input: AlertSettings): Promise<void> {
  const lowBalanceMicros = input.lowBalance === null ? null : usdToMicros(input.lowBalance);
  const monthlyBudgetMicros = input.monthlyBudget === null ? null : usdToMicros(input.monthlyBudget);
  const current = await findAlertSettings(tx, organizationId);
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
  await upsertAlertSettings(tx, organizationId, values);
  const asSaved = (settings: { low: bigint | null; budget: bigint | null; hardStop: boolean }) => ({
    lowBalance: settings.low === null ? null : microsToUsd(settings.low),
    monthlyBudget: settings.budget === null ? null : microsToUsd(settings.budget),
    budgetHardStop: settings.hardStop,
  });
  await recordAudit(tx, {
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

/**
 * Runs in the transaction that charged a call. Each alert is decided by one conditional update of the
 * organization's alert row, so of any number of concurrent charges, in any number of processes,
 * exactly one reports a crossing: below the low-balance threshold (then disarmed until the balance is
 * back), and each budget share of the month.
 */
export async function checkSpendAlerts(tx: Executor, organizationId: string): Promise<void> {
  // Most organizations set no alerts: one indexed read, and the charge's transaction goes on.
  if (!(await hasAlertSettings(tx, organizationId))) return;
  await rearmLowBalance(tx, organizationId);
  const threshold = await disarmLowBalanceBelowThreshold(tx, organizationId);
  if (threshold != null) {
    const organization = await findOrganizationNameAndBalance(tx, organizationId);
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
        organizationAlertMail(to, `Low balance for ${organizationLabel(organization?.name)}`, [
          `The balance of ${organizationLabel(organization?.name)} is ${usd(balance)}, below your alert threshold of ${usd(threshold)}.`,
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
  const readSettings = () => findBudgetShareState(tx, organizationId);
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
    const claimed = await claimBudgetShare(tx, organizationId, { read: settings, month, percent: highest });
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
  const organization = await findOrganizationName(tx, input.organizationId);
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
          `${organization ? quotedName(organization.name) : "Your organization"} reached ${percent}% of its monthly budget`,
          [
            `${organizationLabel(organization?.name)} spent ${usd(input.spend)} this month, ${percent}% of its ${usd(input.budget)} budget.`,
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
