import {
  calls,
  type GetTrainedIdentitiesResponse,
  IDENTITY_REQUEST_HEADER,
  pegasusTrainingFeature,
} from "@prism/contract";
import { STATUS_MEANINGS } from "../errors";
import { EXAMPLE_IDS, exampleResponse } from "../examples";
import { jsonSchemaOf } from "../json-schema";
import { TAGS } from "../tags";
import { type JsonObject, SECURITY_SCHEME } from "../types";

export const TRAINED_IDENTITIES_PATH = calls.playground.getTrainedIdentities.path;
export const TRAINED_IDENTITIES_ERRORS = [400, 401, 404, 429];

/** Listing the project's AI Clones: the one way an API user learns the identity ids to use. */
export function trainedIdentitiesOperation(baseUrl: string): JsonObject {
  const example: GetTrainedIdentitiesResponse = {
    requests: [
      {
        ...exampleResponse(pegasusTrainingFeature).request,
        response_data: { body: { identityId: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38", status: "ready" } },
        description: "Ada",
        identity_id: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38",
        identity_status: "ready",
      },
    ],
    hasMoreItems: false,
  };
  return {
    operationId: "getTrainedIdentities",
    summary: "List AI Clones",
    description: [
      "The project's AI Clones, newest first, a page at a time: each with its `identity_id` (the",
      "`identity_id` field of Pegasus generation and identity inpainting), its `identity_status`",
      "(`pending`, `training`, `ready` or `failed`) and its `id`, the training request id that goes in",
      `the \`${IDENTITY_REQUEST_HEADER}\` header with it. An API key lists its own project only;`,
      "another project answers 404. `offset` is the number of clones already received.",
    ].join("\n"),
    tags: [TAGS.clones.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    requestBody: {
      required: true,
      content: {
        "application/json": {
          schema: jsonSchemaOf(calls.playground.getTrainedIdentities.request, "input"),
          example: { projectId: EXAMPLE_IDS.project, offset: 0 },
        },
      },
    },
    responses: {
      "200": {
        description: "One page of the project's AI Clones.",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/TrainedIdentities" }, example },
        },
      },
      ...Object.fromEntries(
        TRAINED_IDENTITIES_ERRORS.map((status) => [
          String(status),
          { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` },
        ]),
      ),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: [
          `curl -X POST "${baseUrl}${TRAINED_IDENTITIES_PATH}"`,
          `  -H "Authorization: Bearer $PRISM_API_KEY"`,
          `  -H "Content-Type: application/json"`,
          `  -d "{\\"projectId\\": \\"$PROJECT_ID\\", \\"offset\\": 0}"`,
        ].join(" \\\n"),
      },
    ],
  };
}
