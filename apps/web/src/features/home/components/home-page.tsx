import { Anchor, Box, Grid, Group, Paper, Select, Skeleton, Stack, Table, Text, Title } from "@mantine/core";
import {
  backgroundRemovalFeature,
  ERROR_DIALOGS,
  FEATURE_DROPDOWN_MAX_HEIGHT_PX,
  formatBillingUnits,
  statisticsQueryDate,
} from "@prism/contract";
import { IconChartBar } from "@tabler/icons-react";
import { useQuery } from "@tanstack/react-query";
import dayjs from "dayjs";
import { lazy, Suspense, useEffect, useMemo, useState } from "react";
import { Link } from "react-router";
import { EmptyState } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { PageHeader } from "../../../components/page-header";
import { api, isApiError } from "../../../lib/api-client";
import { formatCost, formatUsd } from "../../../lib/format";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { PaymentMethodCard, RechargePanel } from "../../payments";
import {
  ALL_FEATURES_VALUE,
  buildDailySeries,
  buildFeatureOptions,
  buildUsageRows,
  dailySeriesCaption,
  pieSlices,
  pieStrokeWidth,
  totalCost,
  type UsageRow,
  type YearMonth,
} from "../lib/usage";
import { ExportCsvButtons } from "./export-csv-buttons";
import { FirstStepsCard } from "./first-steps";
import { HomeTabs } from "./home-tabs";
import { MonthPicker } from "./month-picker";

const BarChart = lazy(async () => ({ default: (await import("./usage-charts")).BarChart }));
const PieChart = lazy(async () => ({ default: (await import("./usage-charts")).PieChart }));

function currentMonth(): YearMonth {
  const now = new Date();
  return { year: now.getFullYear(), month: now.getMonth() + 1 };
}

function monthTitle({ year, month }: YearMonth): string {
  return dayjs(new Date(year, month - 1, 1)).format("MMMM YYYY");
}

/** A bar's value under the chart's measure: dollars with 2 decimals, or units. */
function barValue(measure: "cost" | "units"): (value: number) => string {
  return measure === "cost"
    ? formatUsd
    : (value) => value.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** "3 images", "12 calls", "4 minutes"; a bare number for an endpoint outside the catalog. */
function formatUnits(row: UsageRow): string {
  return row.unit
    ? formatBillingUnits(row.units, row.unit)
    : row.units.toLocaleString("en-US", { maximumFractionDigits: 2 });
}

/** The colour key of a feature, as its bars and pie slice are drawn. */
function FeatureSwatch({ color }: { color: string }) {
  return (
    <Box
      w={10}
      h={10}
      data-testid="feature-swatch"
      style={{ borderRadius: 2, flexShrink: 0, backgroundColor: color }}
      aria-hidden
    />
  );
}

/** The usage dashboard (Home). */
export function HomePage() {
  const { selectedOrganization } = useSession();
  const canPay = useCan("organization.payments");
  const [month, setMonth] = useState<YearMonth>(currentMonth);
  const [filter, setFilter] = useState<string>(ALL_FEATURES_VALUE);
  const maxMonth = useMemo(currentMonth, []);
  const projectIds = useMemo(
    () => (selectedOrganization?.projects ?? []).map((project) => project.id),
    [selectedOrganization],
  );
  const queryDate = statisticsQueryDate(month.year, month.month);

  const statistics = useQuery({
    queryKey: ["statistics", projectIds, queryDate],
    queryFn: ({ signal }) => api.statistics.get({ projectIds, queryDate }, { signal }),
    enabled: projectIds.length > 0,
    retry: false,
  });

  useEffect(() => {
    const error = statistics.error;
    if (!error || (isApiError(error) && error.status === 401)) return;
    void showErrorDialog(ERROR_DIALOGS.statistics, error);
  }, [statistics.error]);

  const records = statistics.data?.statistics ?? [];
  const endpoints = statistics.data?.endpoints ?? [];
  const options = useMemo(() => buildFeatureOptions(records, endpoints), [records, endpoints]);
  const rows = useMemo(() => buildUsageRows(records, endpoints), [records, endpoints]);
  const slices = useMemo(() => pieSlices(rows), [rows]);
  const total = totalCost(rows);
  const activeFilter = options.some((option) => option.value === filter) ? filter : ALL_FEATURES_VALUE;
  const daily = useMemo(
    () => buildDailySeries(records, options, activeFilter, month.year, month.month),
    [records, options, activeFilter, month],
  );
  const loading = statistics.isLoading;
  const empty = !loading && rows.length === 0;

  const changeMonth = (next: YearMonth) => {
    setMonth(next);
    setFilter(ALL_FEATURES_VALUE);
  };

  return (
    <>
      <HomeTabs />
      <PageHeader
        title="Usage"
        description={`Usage and cost of every feature in ${selectedOrganization?.name ?? "your organization"}.`}
        actions={
          <Group gap="sm" wrap="wrap" maw="100%">
            <ExportCsvButtons month={month} projectIds={projectIds} />
            <MonthPicker label="Month" value={month} onChange={changeMonth} maxMonth={maxMonth} />
          </Group>
        }
      />
      <Stack gap="lg">
        <FirstStepsCard key={selectedOrganization?.id ?? "none"} />
        <Paper withBorder p="lg" radius="md" component="section" aria-label="Usage per day">
          <Group justify="space-between" mb="md" wrap="wrap" gap="sm">
            <Stack gap={2}>
              <Title order={3} fz="lg">
                Usage per day
              </Title>
              <Text size="sm" c="dimmed" data-testid="usage-chart-caption">
                {dailySeriesCaption(daily, monthTitle(month))}
              </Text>
            </Stack>
            <Select
              aria-label="Feature"
              data={options}
              value={activeFilter}
              onChange={(value) => setFilter(value ?? ALL_FEATURES_VALUE)}
              allowDeselect={false}
              maxDropdownHeight={FEATURE_DROPDOWN_MAX_HEIGHT_PX}
              w={{ base: "100%", xs: 240 }}
              disabled={empty}
              comboboxProps={{ withinPortal: true }}
            />
          </Group>
          {loading ? (
            <Skeleton h={300} radius="md" />
          ) : empty ? (
            <EmptyState
              icon={<IconChartBar size={24} aria-hidden />}
              title={`No usage in ${monthTitle(month)}`}
              withBorder={false}
            >
              Calls made from the playground or with an API key show up here, day by day.{" "}
              <Anchor component={Link} to={backgroundRemovalFeature.playgroundRoute}>
                Try the playground
              </Anchor>
            </EmptyState>
          ) : (
            <Box data-testid="usage-chart">
              <Suspense fallback={<Skeleton h={300} />}>
                <BarChart
                  h={300}
                  data={daily.data}
                  dataKey="day"
                  series={daily.series}
                  type="stacked"
                  withLegend={daily.series.length > 1}
                  tickLine="y"
                  gridAxis="y"
                  barProps={{ radius: 2 }}
                  maxBarWidth={22}
                  valueFormatter={barValue(daily.measure)}
                />
              </Suspense>
            </Box>
          )}
        </Paper>

        <Grid gap="lg" align="stretch">
          <Grid.Col span={{ base: 12, lg: slices.length > 0 ? 7 : 12 }}>
            <Paper withBorder p="lg" radius="md" h="100%" component="section" aria-label="Usage by feature">
              <Title order={3} fz="lg" mb="md">
                Usage by feature
              </Title>
              {loading ? (
                <Stack gap="xs">
                  <Skeleton h={18} />
                  <Skeleton h={18} />
                  <Skeleton h={18} />
                </Stack>
              ) : (
                <Table verticalSpacing="sm" data-testid="usage-table">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Feature</Table.Th>
                      <Table.Th ta="right">Units</Table.Th>
                      <Table.Th ta="right">Cost</Table.Th>
                      <Table.Th ta="right">Percent</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {rows.length === 0 ? (
                      <Table.Tr>
                        <Table.Td colSpan={4}>
                          <Text size="sm" c="dimmed" ta="center" py="md">
                            No usage in {monthTitle(month)}.
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ) : (
                      rows.map((row) => (
                        <Table.Tr key={row.key}>
                          <Table.Td>
                            <Group gap={8} wrap="nowrap">
                              <FeatureSwatch color={row.color} />
                              <span>{row.name}</span>
                            </Group>
                          </Table.Td>
                          <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                            {formatUnits(row)}
                          </Table.Td>
                          <Table.Td ta="right">{formatCost(row.cost)}</Table.Td>
                          <Table.Td ta="right">{row.percent.toFixed(1)}%</Table.Td>
                        </Table.Tr>
                      ))
                    )}
                  </Table.Tbody>
                  <Table.Tfoot>
                    <Table.Tr>
                      <Table.Th>Total monthly cost</Table.Th>
                      <Table.Th />
                      <Table.Th ta="right" data-testid="total-cost">
                        {formatUsd(total)}
                      </Table.Th>
                      <Table.Th />
                    </Table.Tr>
                  </Table.Tfoot>
                </Table>
              )}
            </Paper>
          </Grid.Col>
          {slices.length > 0 ? (
            <Grid.Col span={{ base: 12, lg: 5 }}>
              <Paper withBorder p="lg" radius="md" h="100%" component="section" aria-label="Cost breakdown">
                <Title order={3} fz="lg" mb="md">
                  Cost breakdown
                </Title>
                <Group justify="center" gap="xl" wrap="wrap" data-testid="usage-pie">
                  <Suspense fallback={<Skeleton h={180} w={180} circle />}>
                    <PieChart
                      data={slices}
                      size={180}
                      withTooltip
                      tooltipDataSource="segment"
                      valueFormatter={formatUsd}
                      strokeWidth={pieStrokeWidth(slices.length)}
                    />
                  </Suspense>
                  <Stack gap={6}>
                    {slices.map((slice) => (
                      <Group key={slice.name} gap={8} wrap="nowrap">
                        <FeatureSwatch color={slice.color} />
                        <Text size="sm">{slice.name}</Text>
                        <Text size="sm" c="dimmed">
                          {formatUsd(slice.value)}
                        </Text>
                      </Group>
                    ))}
                  </Stack>
                </Group>
              </Paper>
            </Grid.Col>
          ) : null}
        </Grid>

        {canPay ? (
          <Grid gap="lg" align="stretch">
            <Grid.Col span={{ base: 12, md: 6 }}>
              <PaymentMethodCard withActions={false} />
            </Grid.Col>
            <Grid.Col span={{ base: 12, md: 6 }}>
              <RechargePanel withAutoRechargeLink />
            </Grid.Col>
          </Grid>
        ) : null}
      </Stack>
    </>
  );
}
