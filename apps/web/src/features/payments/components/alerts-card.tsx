import {
  Button,
  Checkbox,
  Group,
  NumberInput,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  BUDGET_ALERT_PERCENTS,
  CHANGES_SAVED,
  ERROR_DIALOGS,
  formatBalance,
  type GetAlertsResponse,
  listText,
} from "@prism/contract";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { notify } from "../../../components/overlays/notify";
import { useSession } from "../../../lib/session";
import { useAlerts, useUpdateAlerts } from "../api/alerts";
import { WRAPPING_BUTTON_STYLES } from "./wrapping-button-styles";

/** An empty field turns the alert off. */
const toAmount = (value: number | string): number | null =>
  value === "" || Number.isNaN(Number(value)) ? null : Number(value);

interface AlertsValues {
  lowBalance: number | string;
  budget: number | string;
  hardStop: boolean;
}

function AlertsForm({ organizationId, saved }: { organizationId: string; saved: GetAlertsResponse }) {
  const form = useForm<AlertsValues>({
    initialValues: {
      lowBalance: saved.lowBalance ?? "",
      budget: saved.monthlyBudget ?? "",
      hardStop: saved.budgetHardStop,
    },
  });
  const update = useUpdateAlerts();

  const save = async ({ lowBalance, budget, hardStop }: AlertsValues) => {
    const monthlyBudget = toAmount(budget);
    try {
      await withLoading(() =>
        update.mutateAsync({
          organizationId,
          lowBalance: toAmount(lowBalance),
          monthlyBudget: monthlyBudget && monthlyBudget > 0 ? monthlyBudget : null,
          budgetHardStop: hardStop,
        }),
      );
      notify(CHANGES_SAVED);
    } catch (error) {
      await showErrorDialog(ERROR_DIALOGS.alerts, error);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void save(values))} noValidate>
      <Stack gap="lg">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg" maw={640}>
          <NumberInput
            label="Low balance alert"
            description="Email when the balance falls below (empty: off)"
            prefix="$"
            decimalScale={2}
            allowNegative={false}
            hideControls
            {...form.getInputProps("lowBalance")}
          />
          <NumberInput
            label="Monthly budget"
            description={`Email at ${listText(BUDGET_ALERT_PERCENTS, "and")} % (spent this month: ${formatBalance(saved.monthSpend)})`}
            prefix="$"
            decimalScale={2}
            allowNegative={false}
            hideControls
            {...form.getInputProps("budget")}
          />
        </SimpleGrid>
        <Checkbox
          label="Stop calls at 100 % of the budget"
          description="Feature calls are refused until next month or until the budget is raised."
          {...form.getInputProps("hardStop", { type: "checkbox" })}
          disabled={toAmount(form.values.budget) === null}
        />
        <Group>
          <Button type="submit" styles={WRAPPING_BUTTON_STYLES} loading={update.isPending}>
            Save
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** Alerts: a low-balance threshold and a monthly budget, mailed to the owner and payments members. */
export function AlertsCard() {
  const { selectedOrganization } = useSession();
  const { data, isPending, isError } = useAlerts(selectedOrganization?.id ?? "");
  if (!selectedOrganization) return null;
  return (
    <Paper withBorder p="xl" component="section" aria-label="Alerts">
      <Stack gap="lg">
        <Stack gap={4}>
          <Title order={3} fz="lg">
            Alerts
          </Title>
          <Text size="sm" c="dimmed">
            The owner and members with payments rights are emailed once each time a limit is crossed.
          </Text>
        </Stack>
        {isError ? (
          <Text size="sm" c="dimmed">
            The alerts could not be loaded.
          </Text>
        ) : isPending ? (
          <Group grow maw={640} aria-label="Loading the alerts">
            <Skeleton height={36} />
            <Skeleton height={36} />
          </Group>
        ) : (
          <AlertsForm
            key={`${selectedOrganization.id}:${JSON.stringify(data)}`}
            organizationId={selectedOrganization.id}
            saved={data}
          />
        )}
      </Stack>
    </Paper>
  );
}
