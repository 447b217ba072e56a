import { Button, Stack, TextInput } from "@mantine/core";
import { NAME_MAX_LENGTH } from "@prism/contract";
import { IconArchive, IconLock } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { CopyField } from "./copy-field";
import { SettingsCard } from "./settings-card";

export interface EntitySettingsProps {
  details: { title: string; description: string };
  idLabel: string;
  id: string;
  nameLabel: string;
  initialName: string;
  /** Shown under a read-only name to say who may change it. */
  readOnlyHint: string;
  /** The text shown when Save is pressed with an empty name. */
  emptyNameError: string;
  /** Only the owner renames and archives. */
  canEdit: boolean;
  saving: boolean;
  /** Saves the trimmed name; resolves true when it was saved. */
  onSave: (name: string) => Promise<boolean>;
  archive: { title: string; description: string };
  archiving: boolean;
  onArchive: () => void;
}

/**
 * The General settings of an organization or a project: the read-only id to copy, the
 * name with Save, and the danger card with Archive, both for the owner only.
 */
export function EntitySettings({
  details,
  idLabel,
  id,
  nameLabel,
  initialName,
  readOnlyHint,
  emptyNameError,
  canEdit,
  saving,
  onSave,
  archive,
  archiving,
  onArchive,
}: EntitySettingsProps) {
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string | null>(null);

  const save = async (event: FormEvent) => {
    event.preventDefault();
    if (!canEdit || saving) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(emptyNameError);
      return;
    }
    if (await onSave(trimmed)) setName(trimmed);
  };

  return (
    <Stack gap="lg">
      <form onSubmit={(event) => void save(event)} noValidate>
        <SettingsCard
          title={details.title}
          description={details.description}
          footer={
            <Button
              type="submit"
              disabled={!canEdit}
              loading={saving}
              leftSection={canEdit ? undefined : <IconLock size={14} aria-hidden />}
            >
              Save
            </Button>
          }
        >
          <Stack gap="md" maw={560}>
            <CopyField label={idLabel} value={id} />
            <TextInput
              label={nameLabel}
              value={name}
              maxLength={NAME_MAX_LENGTH}
              readOnly={!canEdit}
              required
              error={error}
              description={canEdit ? undefined : readOnlyHint}
              onChange={(event) => {
                setName(event.currentTarget.value);
                setError(null);
              }}
            />
          </Stack>
        </SettingsCard>
      </form>
      <SettingsCard
        tone="danger"
        title={archive.title}
        description={archive.description}
        footer={
          <Button
            color="red"
            variant="light"
            leftSection={<IconArchive size={16} aria-hidden />}
            disabled={!canEdit}
            loading={archiving}
            onClick={onArchive}
          >
            Archive
          </Button>
        }
      />
    </Stack>
  );
}
