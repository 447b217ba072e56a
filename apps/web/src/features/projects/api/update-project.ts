import type { UpdateProjectRequest } from "@prism/contract";
import { useMutation } from "@tanstack/react-query";
import { api } from "../../../lib/api-client";
import { useSession } from "../../../lib/session";

export function updateProject(input: UpdateProjectRequest) {
  return api.projects.update(input);
}

/** Renames the project and writes the name into the cached user, so the project picker follows. */
export function useUpdateProject() {
  const { updateUserInfo } = useSession();
  return useMutation({
    mutationFn: updateProject,
    onSuccess: (_answer, input) =>
      updateUserInfo((userInfo) => ({
        ...userInfo,
        organizations: userInfo.organizations.map((organization) => ({
          ...organization,
          projects: organization.projects.map((project) =>
            project.id === input.projectId ? { ...project, name: input.name } : project,
          ),
        })),
      })),
  });
}
