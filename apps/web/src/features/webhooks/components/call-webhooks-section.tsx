import { Badge, Button, Code, Group, Paper, Stack, Text, Title } from "@mantine/core";
import { ERROR_DIALOGS, type ListCallWebhookDeliveriesResponse } from "@prism/contract";
import { IconEye, IconRefresh } from "@tabler/icons-react";
import { useState } from "react";
import { CopyField } from "../../../components/copy-field";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { formatDateTime } from "../../../lib/format";
import { useCallDeliveries, useRevealCallSecret, useRotateCallSecret } from "../api/webhooks";

type CallDelivery = ListCallWebhookDeliveriesResponse["deliveries"][number];

const STATUS_COLORS = { pending: "yellow", succeeded: "teal", failed: "red" } as const;

function CallDeliveryLog({ organizationId }: { organizationId: string }) {
  const { data, isError, isPending } = useCallDeliveries(organizationId);
  const columns: ResponsiveColumn<CallDelivery>[] = [
    { key: "event", header: "Event", phone: "title", cell: (row) => <Text size="sm">{row.eventType}</Text> },
    {
      key: "status",
      header: "Status",
      phone: "aside",
      cell: (row) => (
        <Badge color={STATUS_COLORS[row.status]} variant="light">
          {row.status}
        </Badge>
      ),
    },
    {
      key: "url",
      header: "URL",
      cell: (row) => (
        <Text size="sm" style={{ wordBreak: "break-all" }}>
          {row.url}
        </Text>
      ),
    },
    {
      key: "request",
      header: "Request",
      cell: (row) => (
        <Text size="xs" ff="monospace">
          {row.requestId}
        </Text>
      ),
    },
    { key: "code", header: "Response", cell: (row) => row.responseStatus ?? "—" },
    { key: "attempts", header: "Attempts", cell: (row) => row.attempts },
    { key: "time", header: "Created", cell: (row) => formatDateTime(row.createdAt) },
  ];
  if (isError) {
    return (
      <Text size="sm" c="dimmed">
        The per-call deliveries could not be loaded.
      </Text>
    );
  }
  if (!isPending && data.deliveries.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        No per-call deliveries yet.
      </Text>
    );
  }
  return (
    <ResponsiveTable
      label="Per-call deliveries"
      columns={columns}
      rows={data?.deliveries}
      rowKey={(row) => row.id}
      rowProps={(row) => ({ "data-status": row.status, "data-event": row.eventType })}
      minWidth={720}
    />
  );
}

/**
 * Per-call webhooks (issue 29): a feature call may name its own webhook; its deliveries are signed with
 * the organization's per-call secret, revealed here (a sign-in proof may be asked for) and rotated here,
 * and logged like an endpoint's.
 */
export function CallWebhooksSection({ organizationId }: { organizationId: string }) {
  const reveal = useRevealCallSecret();
  const rotate = useRotateCallSecret();
  const [secret, setSecret] = useState<string | null>(null);

  const run = async (action: () => Promise<{ secret: string }>, done?: string) => {
    try {
      setSecret((await action()).secret);
      if (done) notify(done);
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.webhooks, failure);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-label="Per-call webhooks">
      <Stack gap="sm">
        <Title order={3} fz="lg">
          Per-call webhooks
        </Title>
        <Text size="sm" c="dimmed">
          Any feature call can name a webhook of its own: send <Code>webhook=https://…</Code> with the call,
          and <Code>webhook_events_filter=start,completed</Code> to hear when it starts as well as when it
          ends. Those deliveries are signed (Standard Webhooks) with this organization's per-call secret.
        </Text>
        {secret ? (
          <CopyField label="Per-call signing secret" value={secret} />
        ) : (
          <Group gap="sm">
            <Button
              size="xs"
              variant="light"
              leftSection={<IconEye size={14} aria-hidden />}
              loading={reveal.isPending}
              onClick={() => void run(() => reveal.mutateAsync(organizationId))}
            >
              Reveal secret
            </Button>
          </Group>
        )}
        <Group gap="sm">
          <Button
            size="xs"
            variant="subtle"
            color="red"
            leftSection={<IconRefresh size={14} aria-hidden />}
            loading={rotate.isPending}
            onClick={() =>
              void (async () => {
                const confirmed = await openConfirmModal({
                  title: "Rotate the per-call secret",
                  message:
                    "Deliveries from now on are signed with a new secret; receivers still checking the old one will refuse them.",
                });
                if (confirmed)
                  await run(() => rotate.mutateAsync(organizationId), "The per-call secret was rotated.");
              })()
            }
          >
            Rotate secret
          </Button>
        </Group>
        <CallDeliveryLog organizationId={organizationId} />
      </Stack>
    </Paper>
  );
}
