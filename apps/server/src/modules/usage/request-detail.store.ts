import { and, eq } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { apiKeys, featureRequests, projects, users } from "../../db/schema";

/** One call of the organization with the names the Requests view shows beside it; undefined if none. */
export async function findRequestOfOrganization(
  db: Executor,
  input: { organizationId: string; requestId: string },
) {
  const [row] = await db
    .select({
      request: featureRequests,
      projectName: projects.name,
      apiKeyName: apiKeys.name,
      userFirstName: users.firstName,
      userLastName: users.lastName,
    })
    .from(featureRequests)
    .innerJoin(projects, eq(projects.id, featureRequests.projectId))
    .leftJoin(apiKeys, eq(apiKeys.id, featureRequests.apiKeyId))
    .leftJoin(users, eq(users.id, featureRequests.userId))
    .where(
      and(eq(featureRequests.id, input.requestId), eq(featureRequests.organizationId, input.organizationId)),
    )
    .limit(1);
  return row;
}
