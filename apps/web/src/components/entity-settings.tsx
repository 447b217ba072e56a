import { Alert, Button, Stack, TextInput } from "@mantine/core";
import { useForm } from "@mantine/form";
import { NAME_MAX_LENGTH } from "@prism/contract";
import { IconArchive, IconInfoCircle, IconLock } from "@tabler/icons-react";
import { useId } from "react";
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
  /**
   * The danger card. `blockedReason` says why archiving cannot happen (the last organization or project):
   * shown in the card with Archive disabled, before anything is sent.
   */
  archive: { title: string; description: string; blockedReason?: string | undefined };
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
  const blockedId = useId();
  // The name is checked on submit; editing it clears its message.
  const form = useForm({
    initialValues: { name: initialName },
    validate: { name: (name) => (name.trim() ? null : emptyNameError) },
  });

  const save = form.onSubmit(async ({ name }) => {
    const trimmed = name.trim();
    if (await onSave(trimmed)) form.setFieldValue("name", trimmed);
  });

  return (
    <Stack gap="lg">
      <form onSubmit={(event) => (!canEdit || saving ? event.preventDefault() : save(event))} noValidate>
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
              {...form.getInputProps("name")}
              maxLength={NAME_MAX_LENGTH}
              readOnly={!canEdit}
              required
              description={canEdit ? undefined : readOnlyHint}
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
            disabled={!canEdit || archive.blockedReason !== undefined}
            loading={archiving}
            onClick={onArchive}
            aria-describedby={canEdit && archive.blockedReason ? blockedId : undefined}
          >
            Archive
          </Button>
        }
      >
        {canEdit && archive.blockedReason ? (
          <Alert
            id={blockedId}
            variant="light"
            color="gray"
            icon={<IconInfoCircle size={18} aria-hidden />}
            data-testid="archive-blocked"
          >
            {archive.blockedReason}
          </Alert>
        ) : null}
      </SettingsCard>
    </Stack>
  );
}
