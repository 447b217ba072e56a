import "@mantine/dates/styles.css";
import {
  Button,
  Checkbox,
  Group,
  Modal,
  MultiSelect,
  NumberInput,
  SimpleGrid,
  Stack,
  TagsInput,
  Text,
  TextInput,
} from "@mantine/core";
import { DateTimePicker } from "@mantine/dates";
import { useForm } from "@mantine/form";
import {
  API_KEY_MAX_ALLOWED_IPS,
  API_KEY_NO_NAME,
  type ApiKeyLimits,
  NAME_MAX_LENGTH,
  NAME_REQUIRED,
} from "@prism/contract";
import { useState } from "react";
import {
  FEATURE_OPTIONS,
  formFromLimits,
  type LimitsFormValues,
  limitsFromForm,
  validateLimitsForm,
} from "./api-key-limits-form";

export interface ApiKeyDialogProps {
  /** "create" asks for a required name; "edit" changes an existing key. */
  mode: "create" | "edit";
  opened: boolean;
  initialName?: string;
  initialLimits?: ApiKeyLimits;
  onCancel: () => void;
  onSubmit: (input: { name: string; limits: ApiKeyLimits }) => Promise<void> | void;
}

/**
 * The API key dialog: the name and, in one form, what the key may do (issue 17): its features, its
 * monthly and lifetime spend caps, its expiry, the addresses it may be used from and its requests per
 * minute. Every limit is optional; left empty, the key has none.
 */
export function ApiKeyDialog({
  mode,
  opened,
  initialName = "",
  initialLimits,
  onCancel,
  onSubmit,
}: ApiKeyDialogProps) {
  return (
    <Modal
      opened={opened}
      onClose={onCancel}
      title={mode === "create" ? "Create New API Key" : "Edit API Key"}
      size="lg"
      centered
    >
      {opened ? (
        <ApiKeyForm
          mode={mode}
          initialName={initialName}
          initialLimits={initialLimits}
          onCancel={onCancel}
          onSubmit={onSubmit}
        />
      ) : null}
    </Modal>
  );
}

type ApiKeyFormValues = LimitsFormValues & { name: string };

function ApiKeyForm({
  mode,
  initialName,
  initialLimits,
  onCancel,
  onSubmit,
}: Omit<ApiKeyDialogProps, "opened" | "initialName"> & { initialName: string }) {
  // The errors stay until the next save, as they are checked only then (not cleared on change).
  const form = useForm<ApiKeyFormValues>({
    initialValues: {
      name: initialName === API_KEY_NO_NAME ? "" : initialName,
      ...formFromLimits(initialLimits),
    },
    clearInputErrorOnChange: false,
    validate: ({ name, ...limits }) => ({
      ...validateLimitsForm(limits),
      name: mode === "create" && name.trim() === "" ? NAME_REQUIRED : undefined,
    }),
  });
  const [busy, setBusy] = useState(false);
  const { values, errors } = form;

  const submit = async ({ name, ...limits }: ApiKeyFormValues) => {
    setBusy(true);
    try {
      await onSubmit({ name: name.trim(), limits: limitsFromForm(limits) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={form.onSubmit((values) => void submit(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label="Name"
          placeholder="Production server"
          required={mode === "create"}
          maxLength={NAME_MAX_LENGTH}
          value={values.name}
          onChange={(event) => form.setFieldValue("name", event.currentTarget.value)}
          error={errors.name}
          data-autofocus
        />
        <Stack gap={6}>
          <Checkbox
            label="All features"
            checked={values.allFeatures}
            onChange={(event) => form.setFieldValue("allFeatures", event.currentTarget.checked)}
          />
          {values.allFeatures ? null : (
            <MultiSelect
              label="Features"
              description="The key can call only these."
              placeholder="Choose features"
              data={FEATURE_OPTIONS}
              value={values.endpoints}
              onChange={(endpoints) => form.setFieldValue("endpoints", endpoints)}
              error={errors.endpoints}
              searchable
              clearable
              comboboxProps={{ withinPortal: true }}
            />
          )}
        </Stack>
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <NumberInput
            label="Monthly spend cap (USD)"
            description="Per calendar month, UTC."
            placeholder="No cap"
            min={0}
            decimalScale={2}
            prefix="$"
            value={values.monthlySpendCap}
            onChange={(value) => form.setFieldValue("monthlySpendCap", value)}
            error={errors.monthlySpendCap}
          />
          <NumberInput
            label="Lifetime spend cap (USD)"
            placeholder="No cap"
            min={0}
            decimalScale={2}
            prefix="$"
            value={values.lifetimeSpendCap}
            onChange={(value) => form.setFieldValue("lifetimeSpendCap", value)}
            error={errors.lifetimeSpendCap}
          />
          <DateTimePicker
            label="Expires"
            placeholder="Never"
            clearable
            valueFormat="MMM DD, YYYY hh:mm A"
            value={values.expiresAt}
            onChange={(value) => form.setFieldValue("expiresAt", value)}
            error={errors.expiresAt}
            popoverProps={{ withinPortal: true }}
          />
          <NumberInput
            label="Requests per minute"
            placeholder="Server default"
            min={1}
            allowDecimal={false}
            value={values.requestsPerMinute}
            onChange={(value) => form.setFieldValue("requestsPerMinute", value)}
            error={errors.requestsPerMinute}
          />
        </SimpleGrid>
        <TagsInput
          label="Allowed IP addresses"
          description="IPv4 or IPv6 addresses and CIDR ranges; press Enter after each. Empty: any address."
          placeholder="203.0.113.7 or 203.0.113.0/24"
          maxTags={API_KEY_MAX_ALLOWED_IPS}
          value={values.allowedIps}
          onChange={(allowedIps) => form.setFieldValue("allowedIps", allowedIps)}
          error={errors.allowedIps}
          splitChars={[",", " "]}
        />
        <Text size="xs" c="dimmed">
          Calls outside these limits are refused before anything is charged.
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            {mode === "create" ? "Create" : "Save"}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
