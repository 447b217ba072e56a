import { Alert, Badge, Drawer, Group, Stack, Table, Text, Title } from "@mantine/core";
import { API_KEY_RECENT_CALLS, featureByEndpoint } from "@prism/contract";
import { LoadingIndicator } from "../../../components/loading-indicator";
import { summarizeLimits } from "../../../lib/api-key-limits";
import { formatCost, formatDateTime, formatUsd } from "../../../lib/format";
import { useApiKeyDetails } from "../api/get-api-key-details";

const STATUS_COLOR = {
  queued: "gray",
  done: "green",
  generating: "blue",
  error: "red",
  canceled: "gray",
} as const;

/** A key's detail drawer: its limits, its spend this month and over its life, and its last calls. */
export function ApiKeyDrawer({
  projectId,
  apiKeyId,
  onClose,
}: {
  projectId: string;
  apiKeyId: string | null;
  onClose: () => void;
}) {
  const details = useApiKeyDetails(projectId, apiKeyId);
  const data = details.data;
  return (
    <Drawer
      opened={apiKeyId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={data ? `API Key ${data.apiKey.name}` : "API Key"}
    >
      {details.isPending ? (
        <Group justify="center" py="xl">
          <LoadingIndicator label="Loading the key's details" />
        </Group>
      ) : !data ? (
        <Alert color="red" title="The key's details could not be loaded." />
      ) : (
        <Stack gap="lg">
          <Group gap={6}>
            {data.apiKey.expired ? <Badge color="red">Expired</Badge> : null}
            {summarizeLimits(data.apiKey.limits).map((label) => (
              <Badge key={label} variant="light" color="gray">
                {label}
              </Badge>
            ))}
          </Group>
          <Group gap="xl">
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                Spend this month
              </Text>
              <Text fw={600} data-testid="api-key-spend-month">
                {formatUsd(data.apiKey.spendThisMonth)}
              </Text>
            </Stack>
            <Stack gap={2}>
              <Text size="xs" c="dimmed">
                Spend in total
              </Text>
              <Text fw={600}>{formatUsd(data.spendLifetime)}</Text>
            </Stack>
          </Group>
          <Stack gap="xs">
            <Title order={5}>Last {API_KEY_RECENT_CALLS} calls</Title>
            {data.recentCalls.length === 0 ? (
              <Text size="sm" c="dimmed">
                This key has not made any calls yet.
              </Text>
            ) : (
              <Table.ScrollContainer minWidth={560}>
                <Table striped aria-label="Recent calls">
                  <Table.Thead>
                    <Table.Tr>
                      <Table.Th>Endpoint</Table.Th>
                      <Table.Th>Status</Table.Th>
                      <Table.Th>Cost</Table.Th>
                      <Table.Th>Time</Table.Th>
                      <Table.Th>Client IP</Table.Th>
                    </Table.Tr>
                  </Table.Thead>
                  <Table.Tbody>
                    {data.recentCalls.map((call) => (
                      <Table.Tr key={call.requestId}>
                        <Table.Td>
                          <Text size="sm" title={call.endpoint}>
                            {featureByEndpoint(call.endpoint)?.name ?? call.endpoint}
                          </Text>
                        </Table.Td>
                        <Table.Td>
                          <Badge size="sm" variant="light" color={STATUS_COLOR[call.status]}>
                            {call.status}
                          </Badge>
                        </Table.Td>
                        <Table.Td>{formatCost(call.cost)}</Table.Td>
                        <Table.Td>{formatDateTime(call.createdAt)}</Table.Td>
                        <Table.Td>
                          <Text size="sm" ff="monospace">
                            {call.clientIp ?? "—"}
                          </Text>
                        </Table.Td>
                      </Table.Tr>
                    ))}
                  </Table.Tbody>
                </Table>
              </Table.ScrollContainer>
            )}
          </Stack>
        </Stack>
      )}
    </Drawer>
  );
}
