import { Button, Checkbox, Group, Paper, SimpleGrid, Skeleton, Stack, Text, Title } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  type Autorecharge,
  CHANGES_SAVED,
  DEFAULT_RECHARGE_USD,
  ERROR_DIALOGS,
  MIN_RECHARGE_USD,
  PAYMENT_METHOD_REQUIRED,
} from "@prism/contract";
import { IconCreditCardOff } from "@tabler/icons-react";
import { withLoading } from "../../../components/overlays/loading-store";
import { notify } from "../../../components/overlays/notify";
import { useSession } from "../../../lib/session";
import { usePaymentInfo } from "../api/get-payment-info";
import { useUpdateAutoRecharge } from "../api/update-auto-recharge";
import { clampRechargeAmount, rechargeAmountError } from "../lib/amount";
import { showPaymentErrorDialog } from "../lib/payment-errors";
import { AmountInput } from "./amount-input";
import { WRAPPING_BUTTON_STYLES } from "./wrapping-button-styles";

interface AutoRechargeValues {
  enabled: boolean;
  threshold: number | string;
  amount: number | string;
}

function AutoRechargeForm({
  organizationId,
  saved,
  hasCard,
}: {
  organizationId: string;
  saved: Autorecharge;
  hasCard: boolean;
}) {
  const form = useForm<AutoRechargeValues>({
    initialValues: { enabled: saved.enabled, threshold: saved.threshold, amount: saved.amount },
  });
  const { enabled, threshold, amount } = form.values;
  const update = useUpdateAutoRecharge();

  const toggle = (next: boolean) =>
    form.setValues({
      enabled: next,
      // Turning it on with the never-set zeros starts from sensible values instead of the $0 the
      // server would refuse.
      ...(next && Number(threshold) < MIN_RECHARGE_USD ? { threshold: MIN_RECHARGE_USD } : {}),
      ...(next && Number(amount) < MIN_RECHARGE_USD ? { amount: DEFAULT_RECHARGE_USD } : {}),
    });

  const save = async (submitted: AutoRechargeValues) => {
    if (!hasCard || update.isPending) return;
    if (
      submitted.enabled &&
      (rechargeAmountError(submitted.threshold) || rechargeAmountError(submitted.amount))
    )
      return;
    const values = submitted.enabled
      ? { threshold: clampRechargeAmount(submitted.threshold), amount: clampRechargeAmount(submitted.amount) }
      : { threshold: Number(submitted.threshold) || 0, amount: Number(submitted.amount) || 0 };
    if (submitted.enabled) form.setValues(values);
    try {
      await withLoading(() => update.mutateAsync({ organizationId, enabled: submitted.enabled, ...values }));
      notify(CHANGES_SAVED);
    } catch (error) {
      await showPaymentErrorDialog(ERROR_DIALOGS.savePaymentSettings, error);
    }
  };

  // The inputs look disabled while auto recharge is off.
  const inputsOff = !enabled || !hasCard;

  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate>
      <Stack gap="lg">
        <Checkbox
          label="Enable auto recharge"
          description="When the balance falls below the threshold, the card is charged the amount below."
          checked={enabled}
          disabled={!hasCard}
          onChange={(event) => toggle(event.currentTarget.checked)}
        />
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={640}>
          <AmountInput
            label="Threshold"
            description="Recharge when the balance falls below"
            value={threshold}
            onChange={(value) => form.setFieldValue("threshold", value)}
            disabled={inputsOff}
          />
          <AmountInput
            label="Amount"
            description="Amount charged each time"
            value={amount}
            onChange={(value) => form.setFieldValue("amount", value)}
            disabled={inputsOff}
          />
        </SimpleGrid>
        <Group>
          <Button
            type="submit"
            styles={WRAPPING_BUTTON_STYLES}
            disabled={!hasCard}
            loading={update.isPending}
            leftSection={hasCard ? undefined : <IconCreditCardOff size={16} aria-hidden />}
          >
            {hasCard ? "Save" : PAYMENT_METHOD_REQUIRED}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The Auto Recharge box of the spec: enabled checkbox, threshold and amount, Save. */
export function AutoRechargeCard() {
  const { selectedOrganization } = useSession();
  const { info, card, isLoading, isError } = usePaymentInfo(selectedOrganization);
  if (!selectedOrganization) return null;
  return (
    <Paper withBorder p="xl" component="section" aria-label="Auto Recharge">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={3} fz="lg">
            Auto Recharge
          </Title>
          <Text size="sm" c="dimmed">
            Keep the balance topped up so API calls never stop for lack of funds.
          </Text>
        </Stack>
        {isError ? (
          <Text size="sm" c="dimmed">
            The auto recharge settings could not be loaded.
          </Text>
        ) : isLoading || !info ? (
          <Stack gap="md" aria-label="Loading the auto recharge settings">
            <Skeleton height={20} width={220} />
            <Group grow maw={640}>
              <Skeleton height={36} />
              <Skeleton height={36} />
            </Group>
          </Stack>
        ) : (
          <AutoRechargeForm
            // A new answer from the server (another organization, a saved change) restarts the form.
            key={`${selectedOrganization.id}:${JSON.stringify(info.autorecharge)}`}
            organizationId={selectedOrganization.id}
            saved={info.autorecharge}
            hasCard={card !== null}
          />
        )}
      </Stack>
    </Paper>
  );
}
