import {
  Alert,
  Badge,
  Button,
  Checkbox,
  Group,
  Modal,
  Paper,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Text,
  TextInput,
  Title,
} from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  ERROR_DIALOGS,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENT_TYPES,
  type WebhookDelivery,
  type WebhookEndpoint,
  type WebhookEventType,
  webhookUrlSchema,
} from "@prism/contract";
import { IconLock, IconPlus, IconWebhook } from "@tabler/icons-react";
import { useState } from "react";
import { CopyField } from "../../../components/copy-field";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { formatDateTime } from "../../../lib/format";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import {
  useDeleteWebhook,
  useDeliveries,
  useInsertWebhook,
  useQueueDelivery,
  useUpdateWebhook,
  useWebhooks,
} from "../api/webhooks";
import { CallWebhooksSection } from "./call-webhooks-section";

const STATUS_COLORS = { pending: "yellow", succeeded: "teal", failed: "red" } as const;

function EventChoice({
  value,
  onChange,
}: {
  value: WebhookEventType[];
  onChange: (events: WebhookEventType[]) => void;
}) {
  return (
    <Checkbox.Group
      label="Events"
      value={value}
      onChange={(events) => onChange(events as WebhookEventType[])}
    >
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" mt="xs">
        {WEBHOOK_EVENT_TYPES.map((type) => (
          <Checkbox key={type} value={type} label={type} description={WEBHOOK_EVENT_LABELS[type]} />
        ))}
      </SimpleGrid>
    </Checkbox.Group>
  );
}

/** The contract's first complaint about an endpoint address, or null when it passes. */
function webhookUrlError(url: string): string | null {
  const checked = webhookUrlSchema.safeParse(url);
  return checked.success ? null : (checked.error.issues[0]?.message ?? null);
}

/** Add endpoint: URL and events; the answer's secret is shown once, in the same dialog. */
function AddEndpointModal({
  organizationId,
  opened,
  onClose,
}: {
  organizationId: string;
  opened: boolean;
  onClose: () => void;
}) {
  // The address is checked on submit with the contract's rule; editing it clears its message.
  const form = useForm<{ url: string; events: WebhookEventType[] }>({
    initialValues: { url: "", events: ["request.succeeded", "request.failed"] },
    validate: { url: webhookUrlError },
  });
  const [secret, setSecret] = useState<string | null>(null);
  const insert = useInsertWebhook();

  const close = () => {
    // The events chosen stay for the next endpoint; the address and its message do not.
    form.setFieldValue("url", "");
    form.clearErrors();
    setSecret(null);
    onClose();
  };

  const submit = async ({ url, events }: { url: string; events: WebhookEventType[] }) => {
    try {
      const answer = await insert.mutateAsync({ organizationId, url: webhookUrlSchema.parse(url), events });
      setSecret(answer.secret);
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.webhooks, failure);
    }
  };

  return (
    <Modal opened={opened} onClose={close} title={secret ? "Endpoint added" : "Add endpoint"} size="lg">
      {secret ? (
        <Stack gap="md">
          <Alert color="yellow" title="Copy the signing secret now">
            It is shown only once. Receivers verify the webhook-signature header with it (Standard Webhooks).
          </Alert>
          <CopyField label="Signing secret" value={secret} />
          <Group justify="flex-end">
            <Button onClick={close}>Done</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
          <Stack gap="md">
            <TextInput
              label="Endpoint URL"
              placeholder="https://example.com/webhooks/prism"
              {...form.getInputProps("url")}
              data-autofocus
            />
            <EventChoice
              value={form.values.events}
              onChange={(events) => form.setFieldValue("events", events)}
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" loading={insert.isPending} disabled={form.values.events.length === 0}>
                Add endpoint
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}

function DeliveryLog({ organizationId, endpointId }: { organizationId: string; endpointId: string }) {
  const { data, isError } = useDeliveries(organizationId, endpointId);
  const queue = useQueueDelivery();
  const resend = async (deliveryId: string) => {
    try {
      await queue.mutateAsync({ organizationId, endpointId, deliveryId });
      notify("The event was queued again.");
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.webhooks, failure);
    }
  };
  const columns: ResponsiveColumn<WebhookDelivery>[] = [
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
    { key: "code", header: "Response", cell: (row) => row.responseStatus ?? "—" },
    {
      key: "duration",
      header: "Duration",
      cell: (row) => (row.durationMs === null ? "—" : `${row.durationMs} ms`),
    },
    { key: "attempts", header: "Attempts", cell: (row) => row.attempts },
    { key: "time", header: "Created", cell: (row) => formatDateTime(row.createdAt) },
    {
      key: "resend",
      header: "",
      phone: "footer",
      align: "right",
      cell: (row) => (
        <Button
          size="xs"
          variant="default"
          onClick={() => void resend(row.id)}
          disabled={row.status === "pending"}
        >
          Resend
        </Button>
      ),
    },
  ];
  if (isError)
    return (
      <Text size="sm" c="dimmed">
        The delivery log could not be loaded.
      </Text>
    );
  if (data && data.deliveries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        No deliveries yet. Send a test event or make a call.
      </Text>
    );
  return (
    <ResponsiveTable
      label="Deliveries"
      columns={columns}
      rows={data?.deliveries}
      rowKey={(row) => row.id}
      rowProps={(row) => ({ "data-status": row.status, "data-event": row.eventType })}
      minWidth={640}
    />
  );
}

function EndpointCard({ organizationId, endpoint }: { organizationId: string; endpoint: WebhookEndpoint }) {
  const update = useUpdateWebhook();
  const remove = useDeleteWebhook();
  const queue = useQueueDelivery();
  const [showLog, setShowLog] = useState(false);

  const run = async (action: () => Promise<unknown>, done?: string) => {
    try {
      await action();
      if (done) notify(done);
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.webhooks, failure);
    }
  };

  return (
    <Paper withBorder p="lg" component="section" aria-label={`Endpoint ${endpoint.url}`}>
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="sm">
          <Text fw={600} style={{ wordBreak: "break-all" }}>
            {endpoint.url}
          </Text>
          <Switch
            label="Enabled"
            checked={endpoint.enabled}
            onChange={(event) =>
              void run(() =>
                update.mutateAsync({
                  organizationId,
                  endpointId: endpoint.id,
                  url: endpoint.url,
                  events: endpoint.events,
                  enabled: event.currentTarget.checked,
                }),
              )
            }
          />
        </Group>
        {endpoint.disabledReason ? (
          <Alert color="red" variant="light">
            {endpoint.disabledReason}
          </Alert>
        ) : null}
        <Group gap={6}>
          {endpoint.events.map((type) => (
            <Badge key={type} variant="outline" color="gray">
              {type}
            </Badge>
          ))}
        </Group>
        <Group gap="sm">
          <Button
            size="xs"
            variant="light"
            disabled={!endpoint.enabled}
            onClick={() =>
              void run(async () => {
                await queue.mutateAsync({ organizationId, endpointId: endpoint.id });
                setShowLog(true);
              }, "A test event is on its way.")
            }
          >
            Send test event
          </Button>
          <Button size="xs" variant="default" onClick={() => setShowLog((shown) => !shown)}>
            {showLog ? "Hide deliveries" : "Show deliveries"}
          </Button>
          <Button
            size="xs"
            variant="subtle"
            color="red"
            onClick={() =>
              void run(async () => {
                const confirmed = await openConfirmModal({
                  title: "Delete endpoint",
                  message: `Delete ${endpoint.url}? Its delivery log is deleted with it.`,
                  variant: "delete",
                });
                if (confirmed) await remove.mutateAsync({ organizationId, endpointId: endpoint.id });
              })
            }
          >
            Delete
          </Button>
        </Group>
        {showLog ? <DeliveryLog organizationId={organizationId} endpointId={endpoint.id} /> : null}
      </Stack>
    </Paper>
  );
}

function Endpoints({ organizationId }: { organizationId: string }) {
  const { data, isPending, isError } = useWebhooks(organizationId);
  const [adding, setAdding] = useState(false);
  return (
    <Stack gap="lg">
      <Group justify="space-between">
        <Title order={3} fz="lg">
          Endpoints
        </Title>
        <Button leftSection={<IconPlus size={16} aria-hidden />} onClick={() => setAdding(true)}>
          Add endpoint
        </Button>
      </Group>
      {isError ? (
        <Text size="sm" c="dimmed">
          The webhook endpoints could not be loaded.
        </Text>
      ) : isPending ? (
        <Stack aria-label="Loading the webhook endpoints">
          <Skeleton height={96} />
        </Stack>
      ) : data.endpoints.length === 0 ? (
        <EmptyState icon={<IconWebhook size={24} aria-hidden />} title="No endpoints yet">
          Add an endpoint to hear about calls, trainings, payments and alerts as they happen.
        </EmptyState>
      ) : (
        data.endpoints.map((endpoint) => (
          <EndpointCard key={endpoint.id} organizationId={organizationId} endpoint={endpoint} />
        ))
      )}
      <AddEndpointModal organizationId={organizationId} opened={adding} onClose={() => setAdding(false)} />
    </Stack>
  );
}

/** /organization/webhooks: the owner's endpoints, each with its delivery log. */
export function WebhooksPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "owner");
  return (
    <>
      <PageHeader
        title="Webhooks"
        description="Signed HTTP notifications of your organization's events, retried for about a day."
      />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          Only the owner of the organization manages its webhooks.
        </EmptyState>
      ) : (
        <Stack gap="xl" key={selectedOrganization.id}>
          <Endpoints organizationId={selectedOrganization.id} />
          <CallWebhooksSection organizationId={selectedOrganization.id} />
        </Stack>
      )}
    </>
  );
}
