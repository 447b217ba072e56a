import "@mantine/dates/styles.css";
import { Button, Group, Paper, Select, Stack, Text, VisuallyHidden } from "@mantine/core";
import { DatePickerInput } from "@mantine/dates";
import {
  AUDIT_ACTION_LABELS,
  AUDIT_EXPORT_PATH,
  type AuditEntry,
  type AuditFilter,
  auditActionLabel,
  EXPORT_CSV_LABEL,
} from "@prism/contract";
import { IconDownload, IconHistory, IconHistoryOff, IconLock } from "@tabler/icons-react";
import { useMemo, useState } from "react";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { PageHeader } from "../../../components/page-header";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { DATE_FORMAT, formatDateTime } from "../../../lib/format";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useAuditLog } from "../api/audit-log";
import { useMembers } from "../api/get-members";
import { type AuditChange, type AuditNames, describeAuditChanges } from "../lib/audit-changes";

const ACTION_OPTIONS = Object.entries(AUDIT_ACTION_LABELS).map(([value, label]) => ({ value, label }));

function actorText(entry: AuditEntry): string {
  if (entry.actor.type === "system") return "System";
  if (entry.actor.type === "api-key") return `API key ${entry.actor.name ?? "(deleted)"}`;
  return entry.actor.name ?? "Former user";
}

/** Each changed field on a line: its label, the old value struck through, then the new one. */
function ChangeList({ changes, targetType }: { changes: readonly AuditChange[]; targetType: string }) {
  if (changes.length === 0) {
    return (
      <Text size="sm" c="dimmed">
        {humanTarget(targetType)}
      </Text>
    );
  }
  return (
    <Stack gap={4} component="ul" m={0} p={0} style={{ listStyle: "none" }} data-testid="audit-changes">
      {changes.map((change) => (
        <Text key={change.label} size="sm" component="li" style={{ overflowWrap: "anywhere" }}>
          <Text span size="sm" c="dimmed" fw={500}>
            {change.label}:
          </Text>{" "}
          {change.before !== undefined && change.after !== undefined ? (
            <>
              <Text span size="sm" c="dimmed" td="line-through">
                <VisuallyHidden>was </VisuallyHidden>
                {change.before}
              </Text>
              <Text span size="sm" c="dimmed" aria-hidden>
                {" → "}
              </Text>
              <Text span size="sm">
                <VisuallyHidden>now </VisuallyHidden>
                {change.after}
              </Text>
            </>
          ) : change.after !== undefined ? (
            change.after
          ) : (
            <Text span size="sm" c="dimmed">
              {change.before} (removed)
            </Text>
          )}
        </Text>
      ))}
    </Stack>
  );
}

/** "api-key" → "Api key": what an entry without field changes was about. */
function humanTarget(targetType: string): string {
  const words = targetType.replaceAll("-", " ");
  return `${words.charAt(0).toUpperCase()}${words.slice(1)}`;
}

function columnsOf(names: AuditNames): ResponsiveColumn<AuditEntry>[] {
  return [
    {
      key: "action",
      header: "Action",
      phone: "title",
      width: 190,
      cell: (entry) => (
        <Text size="sm" fw={600}>
          {auditActionLabel(entry.action)}
        </Text>
      ),
    },
    {
      key: "time",
      header: "Time",
      phone: "wide-field",
      cell: (entry) => (
        <Text size="sm" c="dimmed" style={{ whiteSpace: "nowrap" }}>
          {formatDateTime(entry.createdAt)}
        </Text>
      ),
    },
    { key: "actor", header: "Actor", cell: (entry) => <Text size="sm">{actorText(entry)}</Text> },
    {
      key: "changes",
      header: "Changes",
      phone: "wide-field",
      cell: (entry) => (
        <ChangeList changes={describeAuditChanges(entry, names)} targetType={entry.targetType} />
      ),
    },
    {
      key: "ip",
      header: "IP address",
      cell: (entry) => (
        <Text size="sm" ff="monospace" c="dimmed">
          {entry.ip ?? "—"}
        </Text>
      ),
    },
  ];
}

function exportHref(filter: AuditFilter): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(filter)) if (value) search.set(name, value);
  return `${AUDIT_EXPORT_PATH}?${search.toString()}`;
}

function AuditLog({ organizationId }: { organizationId: string }) {
  const [actorId, setActorId] = useState<string | null>(null);
  const [action, setAction] = useState<string | null>(null);
  const [range, setRange] = useState<[string | null, string | null]>([null, null]);
  const filter = useMemo<AuditFilter>(
    () => ({
      organizationId,
      ...(actorId ? { actorId } : {}),
      ...(action ? { action: action as AuditFilter["action"] } : {}),
      ...(range[0] ? { from: range[0] } : {}),
      ...(range[1] ? { to: range[1] } : {}),
    }),
    [organizationId, actorId, action, range],
  );
  const log = useAuditLog(filter);
  const members = useMembers(organizationId);
  const actorOptions = (members.data?.members ?? []).map((member) => ({
    value: member.id,
    label: `${member.firstName} ${member.lastName}`.trim() || member.email,
  }));
  const entries = log.data?.pages.flatMap((page) => page.entries);
  const { selectedOrganization } = useSession();
  const columns = useMemo(
    () =>
      columnsOf({
        projects: new Map(
          [...(selectedOrganization?.projects ?? []), ...(members.data?.projects ?? [])].map((project) => [
            project.id,
            project.name,
          ]),
        ),
        members: new Map(
          (members.data?.members ?? []).map((member) => [
            member.id,
            `${member.firstName} ${member.lastName}`.trim() || member.email,
          ]),
        ),
      }),
    [selectedOrganization, members.data],
  );
  const filtered = Boolean(actorId || action || range[0] || range[1]);

  return (
    <Stack gap="md">
      <Group gap="sm" align="flex-end" wrap="wrap">
        <Select
          label="Actor"
          placeholder="Anyone"
          data={actorOptions}
          value={actorId}
          onChange={setActorId}
          clearable
          searchable
          w={{ base: "100%", xs: 200 }}
        />
        <Select
          label="Action"
          placeholder="Any action"
          data={ACTION_OPTIONS}
          value={action}
          onChange={setAction}
          clearable
          searchable
          w={{ base: "100%", xs: 240 }}
        />
        <DatePickerInput
          type="range"
          label="Dates"
          placeholder="Any time"
          valueFormat={DATE_FORMAT}
          value={range}
          onChange={(value) => setRange(value as [string | null, string | null])}
          clearable
          allowSingleDateInRange
          w={{ base: "100%", xs: 240 }}
        />
        <Button
          component="a"
          href={exportHref(filter)}
          download
          variant="default"
          leftSection={<IconDownload size={16} aria-hidden />}
        >
          {EXPORT_CSV_LABEL}
        </Button>
      </Group>
      {log.isError && !entries ? (
        <EmptyState
          icon={<IconHistoryOff size={24} aria-hidden />}
          title="The audit log could not be loaded"
          action={
            <Button variant="light" onClick={() => void log.refetch()}>
              Try again
            </Button>
          }
        >
          {log.error instanceof Error ? log.error.message : "Please try again."}
        </EmptyState>
      ) : entries && entries.length === 0 ? (
        <EmptyState
          icon={<IconHistory size={24} aria-hidden />}
          title={filtered ? "No matching entries" : "No entries yet"}
        >
          {filtered
            ? "No change matches these filters. Clear a filter to see more."
            : "Changes to this organization, its members, projects, API keys and payments will be listed here."}
        </EmptyState>
      ) : (
        <Paper withBorder style={{ overflow: "hidden" }}>
          <ResponsiveTable
            label="Audit log"
            columns={columns}
            rows={entries}
            rowKey={(entry) => entry.id}
            rowProps={(entry) => ({ "data-testid": "audit-row", "data-action": entry.action })}
            loadingRows={6}
            minWidth={760}
          />
        </Paper>
      )}
      {log.hasNextPage ? (
        <Group justify="center">
          <Button variant="light" onClick={() => void log.fetchNextPage()} loading={log.isFetchingNextPage}>
            Load more
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

/** /organization/audit-log: every change made in the organization, for the owner and organization.audit. */
export function AuditLogPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.audit");
  return (
    <>
      <PageHeader
        title="Audit log"
        description="Who changed what in this organization, when and from where. Entries can never be edited or removed."
      />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          You do not have permission to see this organization's audit log.
        </EmptyState>
      ) : (
        <AuditLog key={selectedOrganization.id} organizationId={selectedOrganization.id} />
      )}
    </>
  );
}
