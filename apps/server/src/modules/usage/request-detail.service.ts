import {
  featureByEndpoint,
  type GetRequestResponse,
  microsToUsd,
  PLAYGROUND_CALLER,
  REQUEST_NOT_FOUND,
  REQUEST_RESULT_TEXT_PREVIEW,
  transcriptionResultSchema,
} from "@prism/contract";
import type { Executor } from "../../db/client";
import { AppError } from "../../errors";
import { isUuid, type Membership, requireProjectsOfMembership } from "../access/access.service";
import { costOfRequestMicros, fileUrl } from "../features/feature-requests.store";
import { findRequestOfOrganization } from "./request-detail.store";

/** The words of a transcription's result, in order; null for any other body. */
function transcriptOf(body: unknown): string | null {
  const transcript = transcriptionResultSchema.safeParse(body);
  if (!transcript.success) return null;
  return transcript.data.segments
    .map((segment) => segment.text.trim())
    .join(" ")
    .trim();
}

/**
 * One call of the Requests view, opened: what it was sent (parameters and files), what it answered
 * (the result file or body, the error), what it cost and who made it. Only a member with access to the
 * call's project sees it; an id of another organization, or none at all, is the same 404. A call
 * deleted from the playground keeps its money trail and loses its files and result.
 */
export async function getRequestDetail(
  db: Executor,
  /** The caller's membership of `input.organizationId` (the call's declared access). */
  membership: Membership,
  input: { organizationId: string; requestId: string },
): Promise<GetRequestResponse> {
  if (!isUuid(input.requestId)) throw new AppError("not-found", REQUEST_NOT_FOUND);
  const found = await findRequestOfOrganization(db, input);
  if (!found) throw new AppError("not-found", REQUEST_NOT_FOUND);
  requireProjectsOfMembership(membership, [found.request.projectId]);
  const { request: row } = found;
  const deleted = row.deletedAt !== null;
  const userName = row.apiKeyId
    ? null
    : `${found.userFirstName ?? ""} ${found.userLastName ?? ""}`.trim() || null;
  const transcript = deleted ? null : transcriptOf(row.responseBody);
  return {
    request: {
      id: row.id,
      date: row.createdAt.toISOString(),
      projectId: row.projectId,
      projectName: found.projectName,
      endpoint: row.endpoint,
      feature: featureByEndpoint(row.endpoint)?.name ?? row.endpoint,
      apiKeyId: row.apiKeyId,
      caller: row.apiKeyId ? (found.apiKeyName ?? "") : PLAYGROUND_CALLER,
      status: row.status,
      durationMs: row.completedAt ? Math.max(0, row.completedAt.getTime() - row.createdAt.getTime()) : null,
      cost: microsToUsd(costOfRequestMicros(row)),
      resultUrl: row.responseFile && !deleted ? fileUrl(row.responseFile) : null,
      resultText: transcript ? transcript.slice(0, REQUEST_RESULT_TEXT_PREVIEW) : null,
      userName,
      clientIp: row.clientIp,
      parameters: row.requestBody,
      inputs: deleted
        ? {}
        : Object.fromEntries(
            Object.entries(row.requestFiles).map(([field, keys]) => [field, keys.map(fileUrl)]),
          ),
      resultBody: deleted ? null : (row.responseBody ?? null),
      error: row.status === "error" ? (row.errorMessage ?? null) : null,
      deleted,
    },
  };
}
