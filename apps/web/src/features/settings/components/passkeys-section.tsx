import { ActionIcon, Button, Group, Stack, Text, TextInput, Tooltip } from "@mantine/core";
import { useForm } from "@mantine/form";
import {
  ACCOUNT_SECURITY_ERROR_DIALOGS,
  PASSKEY_ADDED,
  PASSKEY_NAME_MAX_LENGTH,
  PASSKEY_NAME_REQUIRED,
  PASSKEY_REMOVED,
  type Passkey,
} from "@prism/contract";
import { IconTrash } from "@tabler/icons-react";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { withLoading } from "../../../components/overlays/loading-store";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { type ResponsiveColumn, ResponsiveTable } from "../../../components/responsive-table";
import { usePasskeys } from "../../../lib/account-security/get-passkeys";
import { formatDateTime } from "../../../lib/format";
import { isPasskeyPromptClosed } from "../../../lib/passkeys";
import { useAddPasskey } from "../api/add-passkey";
import { useRemovePasskey } from "../api/remove-passkey";

function AddPasskeyForm() {
  const addPasskey = useAddPasskey();
  // The name is checked on submit; editing it clears its message.
  const form = useForm({
    initialValues: { name: "" },
    validate: { name: (name) => (name.trim() ? null : PASSKEY_NAME_REQUIRED) },
  });

  const submit = form.onSubmit(({ name }) => {
    addPasskey.mutate(name.trim(), {
      onSuccess: () => {
        form.reset();
        notify(PASSKEY_ADDED);
      },
      onError: (failure) => {
        if (!isPasskeyPromptClosed(failure))
          void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.addPasskey, failure);
      },
    });
  });

  return (
    <form
      onSubmit={(event) => (addPasskey.isPending ? event.preventDefault() : submit(event))}
      noValidate
      aria-label="Add a passkey"
    >
      <Group align="flex-start" gap="sm">
        <TextInput
          label="Passkey name"
          placeholder="Work laptop"
          maxLength={PASSKEY_NAME_MAX_LENGTH}
          {...form.getInputProps("name")}
          style={{ flex: "1 1 14rem" }}
          maw={320}
        />
        <Button type="submit" mt={25} loading={addPasskey.isPending}>
          Add Passkey
        </Button>
      </Group>
    </form>
  );
}

/** Profile → Passkeys: sign in with a fingerprint, face or device PIN instead of a password and code. */
export function PasskeysSection() {
  const passkeys = usePasskeys();
  const removePasskey = useRemovePasskey();

  const remove = async (passkey: Passkey) => {
    const confirmed = await openConfirmModal({
      title: "Remove Passkey",
      message: (
        <Text size="sm">
          Remove the passkey <b>{passkey.name}</b>? It will no longer sign you in.
        </Text>
      ),
      variant: "delete",
    });
    if (!confirmed) return;
    try {
      await withLoading(() => removePasskey.mutateAsync({ passkeyId: passkey.id }));
      notify(PASSKEY_REMOVED);
    } catch (error) {
      void showErrorDialog(ACCOUNT_SECURITY_ERROR_DIALOGS.removePasskey, error);
    }
  };

  const columns: ResponsiveColumn<Passkey>[] = [
    {
      key: "name",
      header: "Name",
      phone: "title",
      cell: (passkey) => (
        <Text size="sm" fw={600}>
          {passkey.name}
        </Text>
      ),
    },
    {
      key: "created",
      header: "Created",
      cell: (passkey) => <Text size="sm">{formatDateTime(passkey.createdAt)}</Text>,
    },
    {
      key: "lastUsed",
      header: "Last Used",
      cell: (passkey) => (
        <Text size="sm" c={passkey.lastUsedAt ? undefined : "dimmed"}>
          {passkey.lastUsedAt ? formatDateTime(passkey.lastUsedAt) : "Never"}
        </Text>
      ),
    },
    {
      key: "remove",
      header: "Remove",
      align: "right",
      width: 72,
      phone: "aside",
      cell: (passkey) => (
        <Tooltip label="Remove" withArrow>
          <ActionIcon
            variant="subtle"
            color="red"
            onClick={() => void remove(passkey)}
            aria-label={`Remove ${passkey.name}`}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Tooltip>
      ),
    },
  ];

  return (
    <Stack gap="md">
      {passkeys.data && passkeys.data.length === 0 ? (
        <Text size="sm" c="dimmed">
          No passkeys yet.
        </Text>
      ) : (
        <ResponsiveTable
          label="Passkeys"
          columns={columns}
          rows={passkeys.data}
          rowKey={(passkey) => passkey.id}
          rowProps={() => ({ "data-testid": "passkey-row" })}
          minWidth={520}
        />
      )}
      <AddPasskeyForm />
    </Stack>
  );
}
