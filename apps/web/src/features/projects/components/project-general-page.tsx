import {
  ARCHIVE_LAST_PROJECT,
  CHANGES_SAVED,
  ERROR_DIALOGS,
  NAME_REQUIRED,
  type Project,
} from "@prism/contract";
import { NoProjectSelected } from "../../../components/empty-state";
import { EntitySettings } from "../../../components/entity-settings";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { useCan } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useArchiveProject } from "../api/archive-project";
import { useUpdateProject } from "../api/update-project";

function ProjectSettings({ project, projectCount }: { project: Project; projectCount: number }) {
  // The project name and archiving belong to the owner.
  const isOwner = useCan("owner");
  const updateProject = useUpdateProject();
  const archiveProject = useArchiveProject();

  const save = async (name: string) => {
    try {
      await updateProject.mutateAsync({ projectId: project.id, name });
      notify(CHANGES_SAVED);
      return true;
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.updateProject, failure);
      return false;
    }
  };

  // An organization keeps at least one project (the server refuses it too): said beside Archive.
  const isLastProject = projectCount <= 1;

  const confirmArchive = async () => {
    if (isLastProject) return;
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
    <EntitySettings
      details={{
        title: "Project details",
        description: "The identifier to quote to support, and the name shown in the project picker.",
      }}
      idLabel="Project ID"
      id={project.id}
      nameLabel="Project Name"
      initialName={project.name}
      readOnlyHint="Only the organization's owner can rename projects."
      emptyNameError={NAME_REQUIRED}
      canEdit={isOwner}
      saving={updateProject.isPending}
      onSave={save}
      archive={{
        title: "Archive project",
        description:
          "Archiving removes the project and disables its API keys. An organization keeps at least one project.",
        blockedReason: isLastProject ? ARCHIVE_LAST_PROJECT : undefined,
      }}
      archiving={archiveProject.isPending}
      onArchive={() => void confirmArchive()}
    />
  );
}

/** /projects/general: read-only id, the name (owner only), Save and Archive. */
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
        <NoProjectSelected />
      )}
    </>
  );
}
