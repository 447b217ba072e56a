import { ERROR_DIALOGS, REQUIRED_FIELDS_MISSING } from "@prism/contract";
import { useCallback } from "react";
import { withLoading } from "../../components/overlays/loading-store";
import { openInfoModal, openNameInputModal } from "../../components/overlays/modals";
import { api } from "../../lib/api-client";
import { useSession } from "../../lib/session";

/** Creating an organization selects it and its first project. */
export function useCreateOrganization(): () => Promise<void> {
  const { updateUserInfo, selectOrganization } = useSession();
  return useCallback(async () => {
    const name = await openNameInputModal({
      title: "Create organization",
      label: "Organization name",
      placeholder: "Acme Inc.",
      requiredMessage: REQUIRED_FIELDS_MISSING,
    });
    if (name === null) return;
    try {
      const organization = await withLoading(() => api.organizations.create({ name }));
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: [...userInfo.organizations, organization],
      }));
      selectOrganization(organization.id);
    } catch {
      await openInfoModal({
        title: ERROR_DIALOGS.createOrganization.title,
        html: ERROR_DIALOGS.createOrganization.message,
      });
    }
  }, [updateUserInfo, selectOrganization]);
}

/** Creating a project (in the selected organization) selects it. */
export function useCreateProject(): () => Promise<void> {
  const { selectedOrganization, updateUserInfo, selectProject } = useSession();
  const organizationId = selectedOrganization?.id ?? null;
  return useCallback(async () => {
    if (!organizationId) return;
    const name = await openNameInputModal({
      title: "Create project",
      label: "Project name",
      placeholder: "My project",
    });
    if (name === null) return;
    try {
      const project = await withLoading(() => api.projects.create({ name, organizationId }));
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) =>
          organization.id === organizationId
            ? { ...organization, projects: [...organization.projects, project] }
            : organization,
        ),
      }));
      selectProject(project.id);
    } catch {
      await openInfoModal({
        title: ERROR_DIALOGS.createProject.title,
        html: ERROR_DIALOGS.createProject.message,
      });
    }
  }, [organizationId, updateUserInfo, selectProject]);
}
