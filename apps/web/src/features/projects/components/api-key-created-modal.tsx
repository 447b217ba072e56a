import { Alert, Button, Group, Stack, Text } from "@mantine/core";
import { modals } from "@mantine/modals";
import { IconAlertTriangle } from "@tabler/icons-react";
import { CopyField } from "../../../components/copy-field";

/**
 * Shows a new key's secret, the only time it is ever shown. The dialog does not close
 * on an outside click, so the key is not lost by accident.
 */
export function openApiKeyCreatedModal({ name, content }: { name: string; content: string }): Promise<void> {
  return new Promise((resolve) => {
    const modalId = modals.open({
      title: "API Key Created",
      size: "lg",
      centered: true,
      closeOnClickOutside: false,
      onClose: () => resolve(),
      children: (
        <Stack gap="lg">
          <Text size="sm">
            Your new key <b>{name}</b> is ready. Use it in the <code>authorization</code> header of your API
            requests.
          </Text>
          <Alert
            variant="light"
            color="yellow"
            icon={<IconAlertTriangle size={18} aria-hidden />}
            title="Copy it now"
          >
            For your security this key is shown only once. Store it somewhere safe: if you lose it, create a
            new one.
          </Alert>
          <CopyField label="Secret key" value={content} data-testid="api-key-content" data-autofocus />
          <Group justify="flex-end">
            <Button onClick={() => modals.close(modalId)}>Done</Button>
          </Group>
        </Stack>
      ),
    });
  });
}
