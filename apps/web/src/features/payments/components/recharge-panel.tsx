import { Anchor, Button, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  DEFAULT_RECHARGE_USD,
  ERROR_DIALOGS,
  NOTIFICATION_MS,
  PAYMENT_METHOD_REQUIRED,
  RECHARGE_SUCCESSFUL,
  rechargeConfirmText,
} from "@prism/contract";
import { IconBolt, IconCreditCardOff } from "@tabler/icons-react";
import { useState } from "react";
import { Link } from "react-router";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { showToast } from "../../../components/overlays/toasts";
import { formatUsd } from "../../../lib/format";
import { PATHS } from "../../../lib/paths";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { usePaymentInfo } from "../api/get-payment-info";
import { useRechargeAccount } from "../api/recharge-account";
import { clampRechargeAmount, rechargeAmountError } from "../lib/amount";
import { showPaymentErrorDialog } from "../lib/payment-errors";
import { AmountInput } from "./amount-input";
import { WRAPPING_BUTTON_STYLES } from "./wrapping-button-styles";

/**
 * The current balance with a recharge amount and Recharge Now (Payments, and the usage home).
 * Without a card the button is disabled and says "Please add a Payment Method first". Renders nothing
 * without organization.payments. `withAutoRechargeLink` adds the home page's link to the settings.
 */
export function RechargePanel({ withAutoRechargeLink = false }: { withAutoRechargeLink?: boolean }) {
  const { selectedOrganization } = useSession();
  const { card, isLoading, isError } = usePaymentInfo(selectedOrganization);
  const recharge = useRechargeAccount();
  // A smaller or empty amount is raised to the minimum (on leaving the field, and again on submit) and
  // the field says so; a larger one is refused beside the field; the confirmation names the charge.
  const form = useForm<{ amount: number | string }>({ initialValues: { amount: DEFAULT_RECHARGE_USD } });
  const [busy, setBusy] = useState(false);

  if (!selectedOrganization || !canInOrganization(selectedOrganization, "organization.payments")) return null;
  const organizationId = selectedOrganization.id;
  const hasCard = card !== null;
  // Without an answer yet (loading or failed) the card's absence is unknown: no advice to add one.
  const cardUnknown = isLoading || isError;

  const submit = async ({ amount }: typeof form.values) => {
    if (!hasCard || busy || rechargeAmountError(amount)) return;
    const value = clampRechargeAmount(amount);
    form.setFieldValue("amount", value);
    const confirmed = await openConfirmModal({ title: "Recharge", message: rechargeConfirmText(value) });
    if (!confirmed) return;
    setBusy(true);
    try {
      const outcome = await withLoading(() =>
        recharge({ organizationId, amount: value, previousBalance: selectedOrganization.balance }),
      );
      if (outcome === "credited") {
        notify(RECHARGE_SUCCESSFUL);
      } else {
        showToast({
          title: "Payment received",
          message: "Your balance will update in a moment.",
          color: "blue",
          autoClose: NOTIFICATION_MS * 2,
          withBorder: true,
        });
      }
    } catch (error) {
      await showPaymentErrorDialog(ERROR_DIALOGS.recharge, error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper withBorder p="xl" component="section" aria-label="Recharge Now" h="100%">
      <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate style={{ height: "100%" }}>
        <Stack gap="lg" h="100%" justify="space-between">
          <Stack gap="lg">
            <Stack gap={4}>
              <Title order={3} fz="lg">
                Recharge Now
              </Title>
              <Text size="sm" c="dimmed">
                Add funds to the organization's prepaid balance.
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="xs" c="dimmed" tt="uppercase" fw={600} style={{ letterSpacing: "0.04em" }}>
                Current balance
              </Text>
              <Text fz={32} fw={700} ff="monospace" lh={1.2} data-testid="recharge-panel-balance">
                {formatUsd(selectedOrganization.balance)}
              </Text>
            </Stack>
            <AmountInput
              label="Amount"
              value={form.values.amount}
              onChange={(value) => form.setFieldValue("amount", value)}
              disabled={!hasCard}
              maw={280}
            />
          </Stack>
          <Stack gap="xs">
            <Group>
              <Button
                type="submit"
                styles={WRAPPING_BUTTON_STYLES}
                disabled={!hasCard}
                loading={busy}
                leftSection={
                  hasCard || cardUnknown ? (
                    <IconBolt size={16} aria-hidden />
                  ) : (
                    <IconCreditCardOff size={16} aria-hidden />
                  )
                }
              >
                {hasCard || cardUnknown ? "Recharge Now" : PAYMENT_METHOD_REQUIRED}
              </Button>
            </Group>
            {withAutoRechargeLink ? (
              <Anchor component={Link} to={PATHS.organizationPayments} size="sm">
                Auto Recharge settings
              </Anchor>
            ) : null}
          </Stack>
        </Stack>
      </form>
    </Paper>
  );
}
