import { z } from "zod";
import { defineCall } from "../define-call";
import { projectSchema } from "../entities";
import { emptyResponse, idSchema, nameSchema } from "../fields";
import { SHORT_CALL_TIMEOUT_MS } from "../limits";

/** Project calls. */

export const createProjectRequest = z.object({
  name: nameSchema,
  organizationId: idSchema,
});
export const createProjectResponse = projectSchema;
export const createProjectCall = defineCall({
  path: "/v1/users/projects/create",
  auth: "session",
  access: { scope: "organization", permission: "organization.general" },
  request: createProjectRequest,
  response: createProjectResponse,
});

export const updateProjectRequest = z.object({
  projectId: idSchema,
  name: nameSchema,
});
export const updateProjectResponse = emptyResponse;
export const updateProjectCall = defineCall({
  path: "/v1/users/projects/update",
  auth: "session",
  access: { scope: "project", permission: "owner" },
  request: updateProjectRequest,
  response: updateProjectResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

/** Archives the project (owner only); refused with `last-project` for the organization's only one. */
export const deleteProjectRequest = z.object({
  projectId: idSchema,
});
export const deleteProjectResponse = emptyResponse;
export const deleteProjectCall = defineCall({
  path: "/v1/users/projects/delete",
  auth: "session",
  access: { scope: "project", permission: "owner" },
  request: deleteProjectRequest,
  response: deleteProjectResponse,
  timeoutMs: SHORT_CALL_TIMEOUT_MS,
});

export const projectCalls = {
  create: createProjectCall,
  update: updateProjectCall,
  delete: deleteProjectCall,
} as const;

export type CreateProjectRequest = z.infer<typeof createProjectRequest>;
export type UpdateProjectRequest = z.infer<typeof updateProjectRequest>;
export type DeleteProjectRequest = z.infer<typeof deleteProjectRequest>;
