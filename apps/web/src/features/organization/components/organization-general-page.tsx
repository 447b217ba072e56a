import { Button, Stack, TextInput } from "@mantine/core";
import {
  ARCHIVE_LAST_ORGANIZATION,
  CHANGES_SAVED,
  ERROR_DIALOGS,
  NAME_MAX_LENGTH,
  type Organization,
  REQUIRED_FIELDS_MISSING,
} from "@prism/contract";
import { IconArchive, IconBuilding, IconLock } from "@tabler/icons-react";
import { type FormEvent, useState } from "react";
import { useNavigate } from "react-router";
import { CopyField } from "../../../components/copy-field";
import { EmptyState } from "../../../components/empty-state";
import { showErrorDialog } from "../../../components/overlays/error-dialog";
import { openConfirmModal, openInfoModal } from "../../../components/overlays/modals";
import { notify } from "../../../components/overlays/notify";
import { PageHeader } from "../../../components/page-header";
import { SettingsCard } from "../../../components/settings-card";
import { PATHS } from "../../../lib/paths";
import { canInOrganization } from "../../../lib/permissions";
import { useSession } from "../../../lib/session";
import { useArchiveOrganization } from "../api/archive-organization";
import { useUpdateOrganizationName } from "../api/update-organization-name";

function OrganizationSettings({ organization }: { organization: Organization }) {
  const { userInfo } = useSession();
  const navigate = useNavigate();
  // Spec 000 §2: Save and Archive are enabled only for the owner.
  const isOwner = canInOrganization(organization, "owner");
  const [name, setName] = useState(organization.name);
  const [error, setError] = useState<string | null>(null);
  const updateName = useUpdateOrganizationName();
  const archive = useArchiveOrganization();

  const save = (event: FormEvent) => {
    event.preventDefault();
    if (!isOwner || updateName.isPending) return;
    const trimmed = name.trim();
    if (!trimmed) {
      setError(REQUIRED_FIELDS_MISSING);
      return;
    }
    updateName.mutate(
      { organizationId: organization.id, name: trimmed },
      {
        onSuccess: () => {
          setName(trimmed);
          notify(CHANGES_SAVED);
        },
        onError: (failure) => void showErrorDialog(ERROR_DIALOGS.updateOrganization, failure),
      },
    );
  };

  const confirmArchive = async () => {
    // Spec 000 §5: the user's only organization cannot be archived; the server refuses it too.
    if ((userInfo?.organizations.length ?? 0) <= 1) {
      await openInfoModal({ title: ERROR_DIALOGS.deleteOrganization.title, html: ARCHIVE_LAST_ORGANIZATION });
      return;
    }
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
    <Stack gap="lg">
      <form onSubmit={save} noValidate>
        <SettingsCard
          title="Organization details"
          description="The identifier to quote to support, and the name every member sees in the organization picker."
          footer={
            <Button
              type="submit"
              disabled={!isOwner}
              loading={updateName.isPending}
              leftSection={isOwner ? undefined : <IconLock size={14} aria-hidden />}
            >
              Save
            </Button>
          }
        >
          <Stack gap="md" maw={560}>
            <CopyField label="Organization ID" value={organization.id} />
            <TextInput
              label="Name"
              value={name}
              maxLength={NAME_MAX_LENGTH}
              readOnly={!isOwner}
              required
              error={error}
              description={isOwner ? undefined : "Only the owner can rename the organization."}
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
        title="Archive organization"
        description="Archiving removes the organization for every member. You need another active organization to archive this one."
        footer={
          <Button
            color="red"
            variant="light"
            leftSection={<IconArchive size={16} aria-hidden />}
            disabled={!isOwner}
            loading={archive.isPending}
            onClick={() => void confirmArchive()}
          >
            Archive
          </Button>
        }
      />
    </Stack>
  );
}

/** /organization/general (spec 000 §2): read-only id, name, Save and Archive for the owner. */
export function OrganizationGeneralPage() {
  const { selectedOrganization } = useSession();
  const allowed = canInOrganization(selectedOrganization, "organization.general");
  return (
    <>
      <PageHeader title="Organization" description="Your organization's name and identifier." />
      {!selectedOrganization ? (
        <EmptyState icon={<IconBuilding size={24} aria-hidden />} title="No organization selected">
          Create an organization from the picker in the top bar.
        </EmptyState>
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
