import { backgroundRemovalFeature, callAlreadyEndedText, type RequestDetail } from "@prism/contract";
import { EXAMPLE_REQUEST_ID, errorRefs } from "../errors";
import { exampleResponse } from "../examples";
import { TAGS } from "../tags";
import { ERROR_SCHEMA_REF, type JsonObject, SECURITY_SCHEME } from "../types";

/** One call of the key's project: how an API user follows a training and learns a call's cost. */
/** A call that ended well, as GET /v1/requests/{id} shows it. */
export function exampleSucceededDetail(): RequestDetail {
  const request = exampleResponse(backgroundRemovalFeature).request;
  return {
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
}

const ID_PARAMETER = {
  name: "id",
  in: "path",
  required: true,
  description: "The call's `request.id` (the `id` of a 202 answer).",
  schema: { type: "string", format: "uuid" },
};

export function requestDetailOperation(baseUrl: string): JsonObject {
  const example = exampleSucceededDetail();
  return {
    operationId: "getRequest",
    summary: "Get one call",
    description: [
      "One call of the API key's project, by the `request.id` its answer gave: its `status`",
      "(`queued` with its `queue_position`, `running`, then `succeeded`, `failed` with `error` and",
      "`error_message`, or `canceled`), its queued, started and completed times, the result under `response_data`",
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
        source: `curl "${baseUrl}/v1/requests/$REQUEST_ID" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}

/** Canceling a queued or running call: it is stopped and refunded in full, once. */
export function cancelRequestOperation(baseUrl: string): JsonObject {
  const example: RequestDetail = {
    ...exampleSucceededDetail(),
    response_data: {},
    status: "canceled",
    cost: 0,
    completed_date: "2026-05-04T10:21:34.500Z",
    error: "request-canceled",
    error_message: "The call was canceled.",
  };
  return {
    operationId: "cancelRequest",
    summary: "Cancel a call",
    description: [
      "Cancels a call of the API key's project: a queued call never reaches its model, a running one is",
      "stopped at its provider; either way the amount reserved for it is given back in full, once. Canceling",
      "a canceled call answers it again; a call that already succeeded or failed answers 409 `request-ended`.",
      "Another project's call answers 404, as if it did not exist.",
    ].join("\n"),
    tags: [TAGS.usage.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [ID_PARAMETER],
    responses: {
      "200": {
        description: "The call, now `canceled` (cost 0).",
        content: {
          "application/json": { schema: { $ref: "#/components/schemas/RequestDetail" }, example },
        },
      },
      ...errorRefs([401, 404]),
      "409": {
        description: "The call has already ended (succeeded or failed). Codes: `request-ended`.",
        content: {
          "application/json": {
            schema: { $ref: ERROR_SCHEMA_REF },
            example: {
              error: "request-ended",
              message: callAlreadyEndedText("succeeded"),
              requestId: EXAMPLE_REQUEST_ID,
            },
          },
        },
      },
      ...errorRefs([429]),
    },
    "x-codeSamples": [
      {
        lang: "Shell",
        label: "cURL",
        source: `curl -X POST "${baseUrl}/v1/requests/$REQUEST_ID/cancel" \\\n  -H "Authorization: Bearer $PRISM_API_KEY"`,
      },
    ],
  };
}
