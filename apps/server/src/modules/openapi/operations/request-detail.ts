import { backgroundRemovalFeature, type RequestDetail } from "@prism/contract";
import { errorRefs } from "../errors";
import { exampleResponse } from "../examples";
import { TAGS } from "../tags";
import { type JsonObject, SECURITY_SCHEME } from "../types";

/** One call of the key's project: how an API user follows a training and learns a call's cost. */
export function requestDetailOperation(): JsonObject {
  const request = exampleResponse(backgroundRemovalFeature).request;
  const example: RequestDetail = {
    ...request,
    endpoint: backgroundRemovalFeature.endpoint,
    status: "succeeded",
    queue_position: null,
    started_date: "2026-05-04T10:21:34.000Z",
    completed_date: "2026-05-04T10:21:35.000Z",
    reserved: request.cost,
    error: null,
    error_message: null,
    urls: {
      get: `/v1/requests/${request.id}`,
      cancel: `/v1/requests/${request.id}/cancel`,
    },
  };
  return {
    operationId: "getRequest",
    summary: "Get one call",
    description: [
      "One call of the API key's project, by the `request.id` its answer gave: its `status`",
      "(`generating`, `done` or `error`, with `error_message`), the result under `response_data`",
      "(`file` is the result's URL; a training's `body` carries its identity and training status), and",
      "its `cost` in dollars (0 once a failed call is refunded, a training that failed later included).",
      "Another project's call answers 404, as if it did not exist.",
    ].join("\n"),
    tags: [TAGS.usage.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      {
        name: "id",
        in: "path",
        required: true,
        description: "The call's `request.id`.",
        schema: { type: "string", format: "uuid" },
      },
    ],
    responses: {
      "200": {
        description: "The call.",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/RequestDetail" }, example },
        },
      },
      ...errorRefs([401, 404, 429]),
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "$ORIGIN/v1/requests/$REQUEST_ID" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}
