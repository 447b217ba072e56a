import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Text,
  UnstyledButton,
} from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import { useMediaQuery } from "@mantine/hooks";
import {
  FEATURE_DROPDOWN_MAX_HEIGHT_PX,
  FEATURES,
  PLAYGROUND_CALLER,
  PLAYGROUND_CALLER_FILTER,
  REQUEST_STATUS_LABELS,
  REQUEST_STATUSES,
  REQUESTS_EMPTY_TEXT,
  REQUESTS_PAGE_TITLE,
  REQUESTS_RANGE_REVERSED,
  type RequestLogEntry,
  type RequestStatus,
} from "@prism/contract";
import { IconAlertTriangle, IconExternalLink, IconListDetails } from "@tabler/icons-react";
import "@mantine/dates/styles.css";
import { type ReactNode, useMemo, useState } from "react";
import { useSearchParams } from "react-router";
import { EmptyState, NoProjectSelected } from "../../../components/empty-state";
import { PageHeader } from "../../../components/page-header";
import { DATE_FORMAT, formatCost, formatDateTime } from "../../../lib/format";
import { useSession } from "../../../lib/session";
import { type RequestFilters, useRequests } from "../api/get-requests";
import { HomeTabs } from "./home-tabs";
import { RequestDrawer } from "./request-drawer";
import { formatCallDuration, STATUS_COLORS, shortRequestId } from "./request-format";

/** The address's parameter naming the opened call. */
export const REQUEST_PARAM = "request";

const ALL = "all";

const FEATURE_OPTIONS = [
  { value: ALL, label: "All features" },
  ...FEATURES.map((feature) => ({ value: feature.endpoint, label: feature.name })),
];
const STATUS_OPTIONS = [
  { value: ALL, label: "All statuses" },
  ...REQUEST_STATUSES.map((status) => ({ value: status, label: REQUEST_STATUS_LABELS[status] })),
];

export { formatCallDuration };

function StatusBadge({ status }: { status: RequestStatus }) {
  return (
    <Badge
      variant="light"
      color={STATUS_COLORS[status]}
      style={{ flexShrink: 0 }}
      styles={{ root: { maxWidth: "none" }, label: { overflow: "visible" } }}
    >
      {REQUEST_STATUS_LABELS[status]}
    </Badge>
  );
}

/** The call's id, short, as the button that opens its drawer. */
function RequestIdButton({ call, onOpen }: { call: RequestLogEntry; onOpen: () => void }) {
  return (
    <UnstyledButton
      onClick={(event) => {
        event.stopPropagation();
        onOpen();
      }}
      aria-label={`Open the ${call.feature} call ${call.id}`}
      data-testid="request-open"
    >
      <Text span size="sm" ff="monospace" c="prism.7" td="underline">
        {shortRequestId(call.id)}
      </Text>
    </UnstyledButton>
  );
}

function ResultLink({ call }: { call: RequestLogEntry }) {
  if (!call.resultUrl && call.resultText) {
    // A transcription answers words, not a file: its first words stand for the result.
    return (
      <Text size="sm" lineClamp={2} maw={280} data-testid="request-result-text" title={call.resultText}>
        {call.resultText}
      </Text>
    );
  }
  if (!call.resultUrl) return <Text c="dimmed">—</Text>;
  return (
    <Anchor
      href={call.resultUrl}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={`Result of the ${call.feature} call of ${formatDateTime(call.date)}`}
    >
      <Group gap={4} wrap="nowrap" component="span">
        Result <IconExternalLink size={14} aria-hidden />
      </Group>
    </Anchor>
  );
}

/** One call as a card: the phone's layout, where seven columns do not fit. */
function CallCard({
  call,
  withProject,
  onOpen,
}: {
  call: RequestLogEntry;
  withProject: boolean;
  onOpen: () => void;
}) {
  return (
    <Paper withBorder p="sm" radius="md" component="li" data-testid="request-row">
      <Group justify="space-between" wrap="nowrap" align="flex-start">
        <Stack gap={2} miw={0}>
          <Text fw={600} size="sm" truncate>
            {call.feature}
          </Text>
          <Text size="xs" c="dimmed">
            {formatDateTime(call.date)}
            {withProject ? ` · ${call.projectName}` : ""}
          </Text>
          <RequestIdButton call={call} onOpen={onOpen} />
        </Stack>
        <StatusBadge status={call.status} />
      </Group>
      <Group justify="space-between" mt="xs" gap="xs" wrap="wrap">
        <Text size="sm">{call.caller}</Text>
        <Text size="sm" c="dimmed">
          {formatCallDuration(call.durationMs)}
        </Text>
        <Text size="sm" fw={500}>
          {formatCost(call.cost)}
        </Text>
        <ResultLink call={call} />
      </Group>
    </Paper>
  );
}

/**
 * Home's Requests view: every call of the organization's projects across all features, newest first,
 * a page at a time, with filters by feature, API key (or the playground), status and UTC days.
 */
export function RequestsPage() {
  const { selectedOrganization } = useSession();
  const isPhone = useMediaQuery("(max-width: 48em)") ?? false;
  const organizationId = selectedOrganization?.id ?? "";
  const projects = selectedOrganization?.projects ?? [];
  const projectIds = useMemo(() => projects.map((project) => project.id), [projects]);
  const withProject = projects.length > 1;
  const [endpoint, setEndpoint] = useState(ALL);
  const [apiKeyId, setApiKeyId] = useState(ALL);
  const [status, setStatus] = useState(ALL);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const from = range[0] ?? "";
  const to = range[1] ?? "";
  const badRange = from !== "" && to !== "" && to < from;
  // The opened call lives in the address, so a call can be linked to and Back closes it.
  const [search, setSearch] = useSearchParams();
  const openedId = search.get(REQUEST_PARAM);
  const openCall = (id: string | null) =>
    setSearch(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set(REQUEST_PARAM, id);
        else next.delete(REQUEST_PARAM);
        return next;
      },
      { replace: id === null },
    );

  const filters = useMemo<RequestFilters>(
    () => ({
      ...(endpoint !== ALL ? { endpoint: endpoint as RequestFilters["endpoint"] } : {}),
      ...(apiKeyId !== ALL ? { apiKeyId } : {}),
      ...(status !== ALL ? { status: status as RequestStatus } : {}),
      ...(from && !badRange ? { from } : {}),
      ...(to && !badRange ? { to } : {}),
    }),
    [endpoint, apiKeyId, status, from, to, badRange],
  );
  const requests = useRequests(organizationId, projectIds, filters);
  const pages = requests.data?.pages ?? [];
  const calls = pages.flatMap((page) => page.requests);
  const keys = pages[0]?.apiKeys ?? [];
  const keyOptions = [
    { value: ALL, label: "All callers" },
    { value: PLAYGROUND_CALLER_FILTER, label: PLAYGROUND_CALLER },
    ...keys.map((key) => ({
      value: key.id,
      label: withProject ? `${key.name} (${key.projectName})` : key.name,
    })),
  ];
  const filtered = Object.keys(filters).length > 0;
  const clearFilters = () => {
    setEndpoint(ALL);
    setApiKeyId(ALL);
    setStatus(ALL);
    setRange([null, null]);
  };

  let body: ReactNode;
  if (projectIds.length === 0) {
    body = (
      <NoProjectSelected icon={<IconListDetails size={24} aria-hidden />}>
        Create or choose a project to see its calls.
      </NoProjectSelected>
    );
  } else if (requests.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true" aria-label="Loading calls">
        {Array.from({ length: 6 }, (_, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholders with no identity of their own.
          <Skeleton key={index} h={isPhone ? 72 : 36} radius="sm" />
        ))}
      </Stack>
    );
  } else if (requests.isError && calls.length === 0) {
    body = (
      <Alert
        color="red"
        icon={<IconAlertTriangle size={18} aria-hidden />}
        title="Error retrieving the calls"
      >
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{requests.error.message}</Text>
          <Button size="xs" variant="light" color="red" onClick={() => void requests.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else if (calls.length === 0) {
    body = (
      <EmptyState
        icon={<IconListDetails size={24} aria-hidden />}
        title={filtered ? "No calls match these filters" : "No calls yet"}
        action={
          filtered ? (
            <Button variant="default" onClick={clearFilters}>
              Clear filters
            </Button>
          ) : undefined
        }
      >
        {REQUESTS_EMPTY_TEXT}
      </EmptyState>
    );
  } else if (isPhone) {
    body = (
      <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: "none" }} aria-label="Calls">
        {calls.map((call) => (
          <CallCard key={call.id} call={call} withProject={withProject} onOpen={() => openCall(call.id)} />
        ))}
      </Stack>
    );
  } else {
    body = (
      <Table.ScrollContainer minWidth={860}>
        <Table verticalSpacing="sm" highlightOnHover aria-label="Calls">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Request</Table.Th>
              <Table.Th>Time</Table.Th>
              <Table.Th>Feature</Table.Th>
              {withProject ? <Table.Th>Project</Table.Th> : null}
              <Table.Th>API key</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th ta="right">Duration</Table.Th>
              <Table.Th ta="right">Cost</Table.Th>
              <Table.Th>Result</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {calls.map((call) => (
              <Table.Tr
                key={call.id}
                data-testid="request-row"
                onClick={() => openCall(call.id)}
                style={{ cursor: "pointer" }}
              >
                <Table.Td>
                  <RequestIdButton call={call} onOpen={() => openCall(call.id)} />
                </Table.Td>
                <Table.Td style={{ whiteSpace: "nowrap" }}>{formatDateTime(call.date)}</Table.Td>
                <Table.Td>{call.feature}</Table.Td>
                {withProject ? <Table.Td>{call.projectName}</Table.Td> : null}
                <Table.Td>{call.caller}</Table.Td>
                <Table.Td>
                  <StatusBadge status={call.status} />
                </Table.Td>
                <Table.Td ta="right" style={{ whiteSpace: "nowrap" }}>
                  {formatCallDuration(call.durationMs)}
                </Table.Td>
                <Table.Td ta="right">{formatCost(call.cost)}</Table.Td>
                <Table.Td>
                  <ResultLink call={call} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    );
  }

  return (
    <>
      <HomeTabs />
      <PageHeader
        title={REQUESTS_PAGE_TITLE}
        description={`Every call of ${selectedOrganization?.name ?? "your organization"}, newest first.`}
      />
      <Stack gap="md">
        <Paper withBorder p="md" radius="md" component="section" aria-label="Filters">
          <SimpleGrid cols={{ base: 1, xs: 2, md: 5 }} spacing="sm">
            <Select
              label="Feature"
              data={FEATURE_OPTIONS}
              value={endpoint}
              onChange={(value) => setEndpoint(value ?? ALL)}
              allowDeselect={false}
              maxDropdownHeight={FEATURE_DROPDOWN_MAX_HEIGHT_PX}
            />
            <Select
              label="API key"
              data={keyOptions}
              value={apiKeyId}
              onChange={(value) => setApiKeyId(value ?? ALL)}
              allowDeselect={false}
            />
            <Select
              label="Status"
              data={STATUS_OPTIONS}
              value={status}
              onChange={(value) => setStatus(value ?? ALL)}
              allowDeselect={false}
            />
            <DatePickerInput
              type="range"
              label="Days (UTC)"
              placeholder="Any time"
              value={range}
              onChange={(value) => setRange(value as [string | null, string | null])}
              valueFormat={DATE_FORMAT}
              clearable
              allowSingleDateInRange
              error={badRange ? REQUESTS_RANGE_REVERSED : undefined}
            />
          </SimpleGrid>
        </Paper>
        <Paper
          withBorder
          p={isPhone ? "xs" : "md"}
          radius="md"
          component="section"
          aria-label={REQUESTS_PAGE_TITLE}
        >
          {body}
          {requests.hasNextPage || (requests.isError && calls.length > 0) ? (
            <Group justify="center" mt="md">
              {requests.isError && calls.length > 0 ? (
                <Text size="sm" c="red" role="alert">
                  {requests.error?.message}
                </Text>
              ) : null}
              <Button
                variant="default"
                loading={requests.isFetchingNextPage}
                onClick={() => void requests.fetchNextPage()}
              >
                Load more
              </Button>
            </Group>
          ) : null}
        </Paper>
      </Stack>
      <RequestDrawer organizationId={organizationId} requestId={openedId} onClose={() => openCall(null)} />
    </>
  );
}
