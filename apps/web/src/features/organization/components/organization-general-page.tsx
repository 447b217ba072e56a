import {
  ARCHIVE_LAST_ORGANIZATION,
  CHANGES_SAVED,
  ERROR_DIALOGS,
  type Organization,
  REQUIRED_FIELDS_MISSING,
} from "@prism/contract";
import { IconLock } from "@tabler/icons-react";
import { useNavigate } from "react-router";
import { EmptyState, NoOrganizationSelected } from "../../../components/empty-state";
import { EntitySettings } from "../../../components/entity-settings";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { PATHS } from "../../../lib/paths";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useArchiveOrganization } from "../api/archive-organization";
import { useUpdateOrganizationName } from "../api/update-organization-name";

function OrganizationSettings({ organization }: { organization: Organization }) {
  const { userInfo } = useSession();
  const navigate = useNavigate();
  // Save and Archive are enabled only for the owner.
  const isOwner = canInOrganization(organization, "owner");
  const updateName = useUpdateOrganizationName();
  const archive = useArchiveOrganization();

  const save = async (name: string) => {
    try {
      await updateName.mutateAsync({ organizationId: organization.id, name });
      notify(CHANGES_SAVED);
      return true;
    } catch (failure) {
      await showErrorDialog(ERROR_DIALOGS.updateOrganization, failure);
      return false;
    }
  };

  // The user's only organization cannot be archived (the server refuses it too): said beside Archive.
  const isLastOrganization = (userInfo?.organizations.length ?? 0) <= 1;

  const confirmArchive = async () => {
    if (isLastOrganization) return;
    const confirmed = await openConfirmModal({
      title: "Archive Organization",
      message: `Are you sure you want to archive "${organization.name}"? Its members, projects and API keys will no longer be accessible.`,
      variant: "delete",
    });
    if (!confirmed) return;
    archive.mutate(
      { organizationId: organization.id },
      {
        onSuccess: () => {
          notify(CHANGES_SAVED);
          navigate(PATHS.home);
        },
        onError: (failure) => void showErrorDialog(ERROR_DIALOGS.deleteOrganization, failure),
      },
    );
  };

  return (
    <EntitySettings
      details={{
        title: "Organization details",
        description:
          "The identifier to quote to support, and the name every member sees in the organization picker.",
      }}
      idLabel="Organization ID"
      id={organization.id}
      nameLabel="Name"
      initialName={organization.name}
      readOnlyHint="Only the owner can rename the organization."
      emptyNameError={REQUIRED_FIELDS_MISSING}
      canEdit={isOwner}
      saving={updateName.isPending}
      onSave={save}
      archive={{
        title: "Archive organization",
        description:
          "Archiving removes the organization for every member. You need another active organization to archive this one.",
        blockedReason: isLastOrganization ? ARCHIVE_LAST_ORGANIZATION : undefined,
      }}
      archiving={archive.isPending}
      onArchive={() => void confirmArchive()}
    />
  );
}

/** /organization/general: read-only id, name, Save and Archive for the owner. */
export function OrganizationGeneralPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.general");
  return (
    <>
      <PageHeader title="Organization" description="Your organization's name and identifier." />
      {!selectedOrganization ? (
        <NoOrganizationSelected />
      ) : !allowed ? (
        <EmptyState icon={<IconLock size={24} aria-hidden />} title="No access">
          You do not have permission to see this organization's settings.
        </EmptyState>
      ) : (
        <OrganizationSettings key={selectedOrganization.id} organization={selectedOrganization} />
      )}
    </>
  );
}
