import type { DeleteProjectRequest } from "@prism/contract";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function archiveProject(input: DeleteProjectRequest) {
  return api.projects.delete(input);
}

/**
 * Archives the project. Dropping it from the cached user makes the selection fall back to the
 * organization's first remaining project, or none.
 */
export function useArchiveProject() {
  const queryClient = useQueryClient();
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: archiveProject,
    onSuccess: (_answer, input) => {
      queryClient.removeQueries({ queryKey: ["projects", input.projectId] });
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) => ({
          ...organization,
          projects: organization.projects.filter((project) => project.id !== input.projectId),
        })),
      }));
    },
  });
}
