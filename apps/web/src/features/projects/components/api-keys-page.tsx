import { ActionIcon, Badge, Button, Group, Paper, Skeleton, Stack, Text, Tooltip } from "@mantine/core";
import {
  API_KEY_DELETED,
  API_KEY_UNKNOWN_CREATOR,
  API_KEYS_EMPTY,
  type ApiKey,
  type ApiKeyLimits,
  CHANGES_SAVED,
  ERROR_DIALOGS,
} from "@prism/contract";
import {
  IconAdjustments,
  IconAlertTriangle,
  IconKey,
  IconListDetails,
  IconPlus,
  IconTrash,
} from "@tabler/icons-react";
import { useEffect, useRef, useState } from "react";
import { EmptyState, NoProjectSelected } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { summarizeLimits } from "../../../lib/api-key-limits";
import { formatDateTime, formatUsd } from "../../../lib/format";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useCreateApiKey } from "../api/create-api-key";
import { useDeleteApiKey } from "../api/delete-api-key";
import { useApiKeys } from "../api/get-api-keys";
import { useRenameApiKey } from "../api/rename-api-key";
import { useUpdateApiKey } from "../api/update-api-key";
import { openApiKeyCreatedModal } from "./api-key-created-modal";
import { ApiKeyDialog } from "./api-key-dialog";
import { ApiKeyDrawer } from "./api-key-drawer";
import { ApiKeyNameInput } from "./api-key-name-input";

/** "Created by": the creator's name, or "Unknown" when both names are missing. */
export function creatorName(apiKey: Pick<ApiKey, "creationUserFirstName" | "creationUserLastName">): string {
  const name = `${apiKey.creationUserFirstName ?? ""} ${apiKey.creationUserLastName ?? ""}`.trim();
  return name || API_KEY_UNKNOWN_CREATOR;
}

function KeysSkeleton() {
  return (
    <Stack gap="md" p="lg" role="status" aria-label="Loading API keys">
      {[0, 1, 2].map((row) => (
        <Group key={row} gap="lg" wrap="nowrap">
          <Skeleton height={12} width="22%" />
          <Skeleton height={12} width="10%" />
          <Skeleton height={12} width="18%" />
          <Skeleton height={12} width="18%" />
          <Skeleton height={12} width="12%" />
        </Group>
      ))}
    </Stack>
  );
}

function ApiKeysTable({ projectId, apiKeys }: { projectId: string; apiKeys: readonly ApiKey[] }) {
  const canRename = useCan("apiKeys.create");
  const canDelete = useCan("apiKeys.delete");
  const renameApiKey = useRenameApiKey();
  const updateApiKey = useUpdateApiKey();
  const deleteApiKey = useDeleteApiKey();
  const [editing, setEditing] = useState<ApiKey | null>(null);
  const [shownKeyId, setShownKeyId] = useState<string | null>(null);

  const saveLimits = async (apiKey: ApiKey, input: { name: string; limits: ApiKeyLimits }) => {
    try {
      await updateApiKey.mutateAsync({
        projectId,
        apiKeyId: apiKey.id,
        apiKeyName: input.name,
        limits: input.limits,
      });
      setEditing(null);
      notify(CHANGES_SAVED);
    } catch (error) {
      void showErrorDialog(ERROR_DIALOGS.updateApiKey, error);
    }
  };

  const rename = async (apiKey: ApiKey, apiKeyName: string) => {
    try {
      await renameApiKey.mutateAsync({ projectId, apiKeyId: apiKey.id, apiKeyName });
      notify(CHANGES_SAVED);
    } catch (error) {
      void showErrorDialog(ERROR_DIALOGS.updateApiKey, error);
      throw error;
    }
  };

  const remove = async (apiKey: ApiKey) => {
    const confirmed = await openConfirmModal({
      title: "Delete API Key",
      message: (
        <Text size="sm">
          Are you sure you want to delete <b>{apiKey.name}</b> (…{apiKey.lastFourDigits})? Requests using it
          will be refused from now on.
        </Text>
      ),
      variant: "delete",
    });
    if (!confirmed) return;
    try {
      await withLoading(() => deleteApiKey.mutateAsync({ projectId, apiKeyId: apiKey.id }));
      notify(API_KEY_DELETED);
    } catch (error) {
      void showErrorDialog(ERROR_DIALOGS.deleteApiKey, error);
    }
  };

  const columns: ResponsiveColumn<ApiKey>[] = [
    {
      key: "name",
      header: "Name",
      phone: "title",
      cell: (apiKey) => (
        <ApiKeyNameInput
          name={apiKey.name}
          disabled={!canRename}
          onRename={(apiKeyName) => rename(apiKey, apiKeyName)}
        />
      ),
    },
    {
      key: "last4",
      header: "Last 4 Digits",
      cell: (apiKey) => (
        <Text size="sm" ff="monospace">
          ••••{apiKey.lastFourDigits}
        </Text>
      ),
    },
    {
      key: "lastUsed",
      header: "Last Used",
      cell: (apiKey) => (
        <Text size="sm" c={apiKey.lastUsed ? undefined : "dimmed"}>
          {apiKey.lastUsed ? formatDateTime(apiKey.lastUsed) : "Never"}
        </Text>
      ),
    },
    {
      key: "limits",
      header: "Limits",
      // The limits and the action that edits them, side by side.
      cell: (apiKey) => (
        <Group gap={6} wrap="nowrap" align="flex-start">
          <Group gap={4} wrap="wrap" miw={96} maw={240} data-testid="api-key-limits">
            {apiKey.expired ? (
              <Badge size="sm" color="red" styles={WHOLE_BADGE}>
                Expired
              </Badge>
            ) : null}
            {summarizeLimits(apiKey.limits).map((label) => (
              <Badge key={label} size="sm" variant="light" color="gray" tt="none" styles={WHOLE_BADGE}>
                {label}
              </Badge>
            ))}
          </Group>
          <Tooltip
            label={canRename ? "Edit limits" : "You do not have permission to edit API keys"}
            withArrow
          >
            <ActionIcon
              variant="subtle"
              size="sm"
              disabled={!canRename}
              onClick={() => setEditing(apiKey)}
              aria-label={`Edit limits of ${apiKey.name}`}
            >
              <IconAdjustments size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
    {
      key: "spend",
      header: "Spend This Month",
      // The month's spend and the drawer with the key's recent calls.
      cell: (apiKey) => (
        <Group gap={6} wrap="nowrap">
          <Text size="sm" data-testid="api-key-spend" style={{ whiteSpace: "nowrap" }}>
            {formatUsd(apiKey.spendThisMonth)}
            {apiKey.limits.monthlySpendCap !== null ? (
              <Text span size="xs" c="dimmed">
                {" "}
                of {formatUsd(apiKey.limits.monthlySpendCap)}
              </Text>
            ) : null}
          </Text>
          <Tooltip label="Recent calls and details" withArrow>
            <ActionIcon
              variant="subtle"
              size="sm"
              onClick={() => setShownKeyId(apiKey.id)}
              aria-label={`Details of ${apiKey.name}`}
            >
              <IconListDetails size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
    {
      key: "created",
      header: "Created",
      cell: (apiKey) => <Text size="sm">{formatDateTime(apiKey.creationDate)}</Text>,
    },
    {
      key: "createdBy",
      header: "Created by",
      cell: (apiKey) => <Text size="sm">{creatorName(apiKey)}</Text>,
    },
    {
      key: "delete",
      header: "Delete",
      align: "right",
      width: 80,
      phone: "aside",
      cell: (apiKey) => (
        <Group gap={2} justify="flex-end" wrap="nowrap">
          <Tooltip label={canDelete ? "Delete" : "You do not have permission to delete API keys"} withArrow>
            <ActionIcon
              variant="subtle"
              color="red"
              disabled={!canDelete}
              onClick={() => void remove(apiKey)}
              aria-label={`Delete ${apiKey.name}`}
            >
              <IconTrash size={16} aria-hidden />
            </ActionIcon>
          </Tooltip>
        </Group>
      ),
    },
  ];

  return (
    <>
      <ResponsiveTable
        label="API keys"
        columns={columns}
        rows={apiKeys}
        rowKey={(apiKey) => apiKey.id}
        rowProps={() => ({ "data-testid": "api-key-row" })}
        minWidth={1100}
        tableProps={{ highlightOnHover: true }}
      />
      <ApiKeyDialog
        mode="edit"
        opened={editing !== null}
        initialName={editing?.name ?? ""}
        {...(editing ? { initialLimits: editing.limits } : {})}
        onCancel={() => setEditing(null)}
        onSubmit={(input) => (editing ? saveLimits(editing, input) : undefined)}
      />
      <ApiKeyDrawer projectId={projectId} apiKeyId={shownKeyId} onClose={() => setShownKeyId(null)} />
    </>
  );
}

/** A limit's badge shows its whole text: "No limits", never "No li…". */
const WHOLE_BADGE = {
  root: { maxWidth: "none", overflow: "visible" },
  label: { overflow: "visible" },
} as const;

function ProjectApiKeys({ projectId, projectName }: { projectId: string; projectName: string }) {
  const canCreate = useCan("apiKeys.create");
  const apiKeys = useApiKeys(projectId);
  const createApiKey = useCreateApiKey();

  // "Error fetching API Keys" (a 401 signs out instead), once per failure.
  const reportedError = useRef<unknown>(null);
  useEffect(() => {
    if (!apiKeys.error || reportedError.current === apiKeys.error) return;
    reportedError.current = apiKeys.error;
    void showErrorDialog(ERROR_DIALOGS.fetchApiKeys, apiKeys.error);
  }, [apiKeys.error]);

  const [creating, setCreating] = useState(false);

  const create = async ({ name, limits }: { name: string; limits: ApiKeyLimits }) => {
    try {
      const { apiKey } = await withLoading(() =>
        createApiKey.mutateAsync({ projectId, apiKeyName: name, limits }),
      );
      setCreating(false);
      await openApiKeyCreatedModal({ name: apiKey.name, content: apiKey.content });
    } catch (error) {
      void showErrorDialog(ERROR_DIALOGS.createApiKey, error);
    }
  };

  return (
    <>
      <PageHeader
        title="API Keys"
        description={
          <>
            Keys that authenticate your requests to the API for <b>{projectName}</b>.
          </>
        }
        actions={
          <Tooltip label="You do not have permission to create API keys" disabled={canCreate} withArrow>
            <Button
              leftSection={<IconPlus size={16} aria-hidden />}
              disabled={!canCreate}
              onClick={() => setCreating(true)}
            >
              Create New
            </Button>
          </Tooltip>
        }
      />
      <Paper withBorder style={{ overflow: "hidden" }}>
        {apiKeys.isPending ? (
          <KeysSkeleton />
        ) : apiKeys.data ? (
          apiKeys.data.length === 0 ? (
            <EmptyState withBorder={false} icon={<IconKey size={24} aria-hidden />} title="No API keys yet">
              {API_KEYS_EMPTY}
            </EmptyState>
          ) : (
            <ApiKeysTable projectId={projectId} apiKeys={apiKeys.data} />
          )
        ) : (
          <EmptyState
            withBorder={false}
            icon={<IconAlertTriangle size={24} aria-hidden />}
            title={ERROR_DIALOGS.fetchApiKeys.title}
            action={
              <Button variant="default" size="xs" onClick={() => void apiKeys.refetch()}>
                Try again
              </Button>
            }
          >
            The API keys of this project could not be loaded.
          </EmptyState>
        )}
      </Paper>
      <ApiKeyDialog mode="create" opened={creating} onCancel={() => setCreating(false)} onSubmit={create} />
    </>
  );
}

/** /projects/api-keys. */
export function ApiKeysPage() {
  const { selectedProject } = useSession();
  if (!selectedProject) {
    return (
      <>
        <PageHeader title="API Keys" description="Keys that authenticate your requests to the API." />
        <NoProjectSelected>
          Create a project from the project picker in the top bar to generate keys for it.
        </NoProjectSelected>
      </>
    );
  }
  return (
    <ProjectApiKeys
      key={selectedProject.id}
      projectId={selectedProject.id}
      projectName={selectedProject.name}
    />
  );
}
