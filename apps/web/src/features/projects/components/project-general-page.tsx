import { Button, Stack, TextInput } from "@mantine/core";
import {
  ARCHIVE_LAST_PROJECT,
  CHANGES_SAVED,
  ERROR_DIALOGS,
  NAME_MAX_LENGTH,
  NAME_REQUIRED,
  type Project,
} from "@prism/contract";
import { IconArchive, IconFolder, IconLock } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { CopyField } from "../../../components/copy-field";
import { EmptyState } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal, openInfoModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { SettingsCard } from "../../../components/settings-card";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useArchiveProject } from "../api/archive-project";
import { useUpdateProject } from "../api/update-project";

function ProjectSettings({ project, projectCount }: { project: Project; projectCount: number }) {
  // Spec 000 §6: the project name and archiving belong to the owner.
  const isOwner = useCan("owner");
  const [name, setName] = useState(project.name);
  const [error, setError] = useState<string | null>(null);
  const updateProject = useUpdateProject();
  const archiveProject = useArchiveProject();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!isOwner || updateProject.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(NAME_REQUIRED);
      return;
    }
    updateProject.mutate(
      { projectId: project.id, name: trimmed },
      {
        onSuccess: () => {
          setName(trimmed);
          notify(CHANGES_SAVED);
        },
        onError: (failure) => void showErrorDialog(ERROR_DIALOGS.updateProject, failure),
      },
    );
  };

  const confirmArchive = async () => {
    // Spec 000 §5: an organization keeps at least one project; the server refuses it too.
    if (projectCount <= 1) {
      await openInfoModal({ title: ERROR_DIALOGS.archiveProject.title, html: ARCHIVE_LAST_PROJECT });
      return;
    }
    const confirmed = await openConfirmModal({
      title: "Archive Project",
      message: `Are you sure you want to archive "${project.name}"? Its API keys will stop working.`,
      variant: "delete",
    });
    if (!confirmed) return;
    archiveProject.mutate(
      { projectId: project.id },
      {
        onSuccess: () => notify(CHANGES_SAVED),
        onError: (failure) => void showErrorDialog(ERROR_DIALOGS.archiveProject, failure),
      },
    );
  };

  return (
    <Stack gap="lg">
      <form onSubmit={save} noValidate>
        <SettingsCard
          title="Project details"
          description="The identifier to quote to support, and the name shown in the project picker."
          footer={
            <Button
              type="submit"
              disabled={!isOwner}
              loading={updateProject.isPending}
              leftSection={isOwner ? undefined : <IconLock size={14} aria-hidden />}
            >
              Save
            </Button>
          }
        >
          <Stack gap="md" maw={560}>
            <CopyField label="Project ID" value={project.id} />
            <TextInput
              label="Project Name"
              value={name}
              maxLength={NAME_MAX_LENGTH}
              readOnly={!isOwner}
              required
              error={error}
              description={isOwner ? undefined : "Only the organization's owner can rename projects."}
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
        title="Archive project"
        description="Archiving removes the project and disables its API keys. An organization keeps at least one project."
        footer={
          <Button
            color="red"
            variant="light"
            leftSection={<IconArchive size={16} aria-hidden />}
            disabled={!isOwner}
            loading={archiveProject.isPending}
            onClick={() => void confirmArchive()}
          >
            Archive
          </Button>
        }
      />
    </Stack>
  );
}

/** /projects/general (spec 000 §2): read-only id, the name (owner only), Save and Archive. */
export function ProjectGeneralPage() {
  const { selectedOrganization, selectedProject } = useSession();
  return (
    <>
      <PageHeader title="Project" description="The selected project's name and identifier." />
      {selectedProject ? (
        <ProjectSettings
          key={selectedProject.id}
          project={selectedProject}
          projectCount={selectedOrganization?.projects.length ?? 0}
        />
      ) : (
        <EmptyState icon={<IconFolder size={24} aria-hidden />} title="No project selected">
          Create a project from the project picker in the top bar.
        </EmptyState>
      )}
    </>
  );
}
