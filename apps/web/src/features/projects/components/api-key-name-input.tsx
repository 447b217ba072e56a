import { TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { API_KEY_NO_NAME, NAME_MAX_LENGTH } from "@prism/contract";
import { IconPencil } from "@tabler/icons-react";
import { type KeyboardEvent, useRef, useState } from "react";

interface ApiKeyNameInputProps {
  name: string;
  disabled?: boolean;
  onRename: (name: string) => Promise<void>;
}

/**
 * The inline-editable key name of the spec: Enter commits, Escape reverts, and the name is sent
 * only when it changed. Leaving the field also commits, so an edit is never lost silently. An empty
 * name is sent as "- no name -". `onRename` rejects when the server refused, and the input reverts.
 */
export function ApiKeyNameInput(props: ApiKeyNameInputProps) {
  // A rename saved here or elsewhere (a refreshed list) restarts the field with the new name.
  return <NameField key={props.name} {...props} />;
}

function NameField({ name, disabled = false, onRename }: ApiKeyNameInputProps) {
  // The name has no message: it is sent as typed (trimmed, an empty one as "- no name -") and the
  // field reverts when the server refuses it.
  const form = useForm({ initialValues: { name } });
  const [saving, setSaving] = useState(false);
  const skipBlur = useRef(false);
  const setValue = (value: string) => form.setFieldValue("name", value);

  const commit = async () => {
    const next = form.getValues().name.trim() || API_KEY_NO_NAME;
    if (next === name) {
      setValue(name);
      return;
    }
    setValue(next);
    setSaving(true);
    try {
      await onRename(next);
    } catch {
      setValue(name);
    } finally {
      setSaving(false);
    }
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === "Enter") {
      event.preventDefault();
      skipBlur.current = true;
      event.currentTarget.blur();
      void commit();
    } else if (event.key === "Escape") {
      event.preventDefault();
      skipBlur.current = true;
      setValue(name);
      event.currentTarget.blur();
    }
  };

  return (
    <TextInput
      {...form.getInputProps("name")}
      onKeyDown={onKeyDown}
      onBlur={() => {
        if (skipBlur.current) {
          skipBlur.current = false;
          return;
        }
        void commit();
      }}
      disabled={disabled || saving}
      maxLength={NAME_MAX_LENGTH}
      aria-label="API key name"
      variant="unstyled"
      size="sm"
      miw={160}
      styles={{
        input: {
          paddingInline: 8,
          borderRadius: "var(--mantine-radius-sm)",
          fontWeight: 500,
        },
      }}
      classNames={{ input: "prism-inline-input" }}
      rightSection={
        disabled ? null : <IconPencil size={14} aria-hidden className="prism-inline-input-icon" />
      }
      rightSectionPointerEvents="none"
    />
  );
}
