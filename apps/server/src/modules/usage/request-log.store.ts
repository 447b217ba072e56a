import { REQUEST_RESULT_TEXT_PREVIEW, type RequestStatus, transcriptionFeature } from "@prism/contract";
import { and, asc, desc, eq, gte, inArray, isNull, lt, type SQL, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { apiKeys, featureRequests, projects } from "../../db/schema";

/** Where the previous page ended: the row's exact time (microseconds, as text) and its id. */
export interface RequestLogKeyset {
  at: string;
  id: string;
}

export interface RequestLogFilter {
  organizationId: string;
  projectIds: string[];
  endpoint?: string;
  /** A key id, or null for the console's own calls; undefined lists every caller. */
  apiKeyId?: string | null;
  status?: RequestStatus;
  /** `[from, to)`. */
  from?: Date;
  to?: Date;
}

/**
 * One page of the organization's calls in the named projects, newest first, after the keyset. The
 * organization's (organization, time, id) index is read backwards from the keyset, so the page costs the
 * rows it returns plus those the filters skip, never an offset's worth.
 */
export function listRequestLogPage(
  db: Executor,
  filter: RequestLogFilter,
  after: RequestLogKeyset | undefined,
  limit: number,
) {
  const conditions: (SQL | undefined)[] = [
    eq(featureRequests.organizationId, filter.organizationId),
    inArray(featureRequests.projectId, filter.projectIds),
    filter.endpoint ? eq(featureRequests.endpoint, filter.endpoint) : undefined,
    filter.status ? eq(featureRequests.status, filter.status) : undefined,
    filter.apiKeyId === null
      ? isNull(featureRequests.apiKeyId)
      : filter.apiKeyId
        ? eq(featureRequests.apiKeyId, filter.apiKeyId)
        : undefined,
    filter.from ? gte(featureRequests.createdAt, filter.from) : undefined,
    filter.to ? lt(featureRequests.createdAt, filter.to) : undefined,
    // A row comparison, so rows sharing one instant are split by id and none is repeated or skipped.
    after
      ? sql`(${featureRequests.createdAt}, ${featureRequests.id}) < (${after.at}::timestamptz, ${after.id}::uuid)`
      : undefined,
  ];
  return db
    .select({
      id: featureRequests.id,
      createdAt: featureRequests.createdAt,
      at: sql<string>`${featureRequests.createdAt}::text`,
      completedAt: featureRequests.completedAt,
      deletedAt: featureRequests.deletedAt,
      projectId: featureRequests.projectId,
      projectName: projects.name,
      endpoint: featureRequests.endpoint,
      apiKeyId: featureRequests.apiKeyId,
      apiKeyName: apiKeys.name,
      status: featureRequests.status,
      priceMicros: featureRequests.priceMicros,
      responseFile: featureRequests.responseFile,
      resultText: transcriptPreview(REQUEST_RESULT_TEXT_PREVIEW),
    })
    .from(featureRequests)
    .innerJoin(projects, eq(projects.id, featureRequests.projectId))
    .leftJoin(apiKeys, eq(apiKeys.id, featureRequests.apiKeyId))
    .where(and(...conditions))
    .orderBy(desc(featureRequests.createdAt), desc(featureRequests.id))
    .limit(limit);
}

/**
 * The start of a transcription's transcript (its segments' words, in order), read in the query so a page
 * of the log carries a few words per call rather than whole transcripts; null for other features.
 */
export function transcriptPreview(length: number) {
  const body = featureRequests.responseBody;
  return sql<string | null>`case when ${featureRequests.endpoint} = ${transcriptionFeature.endpoint}
    and jsonb_typeof(${body} -> 'segments') = 'array'
    then left(btrim((select string_agg(btrim(segment.value ->> 'text'), ' ' order by segment.ordinality)
      from jsonb_array_elements(${body} -> 'segments') with ordinality as segment)), ${length})
    end`;
}

/** The keys of the projects (revoked ones too: their calls stay listed), for the key filter. */
export async function listKeysOfProjects(db: Executor, projectIds: string[]) {
  return db
    .select({ id: apiKeys.id, name: apiKeys.name, projectId: apiKeys.projectId, projectName: projects.name })
    .from(apiKeys)
    .innerJoin(projects, eq(projects.id, apiKeys.projectId))
    .where(inArray(apiKeys.projectId, projectIds))
    .orderBy(asc(apiKeys.name), asc(apiKeys.id));
}
