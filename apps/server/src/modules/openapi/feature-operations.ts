import {
  CALL_WEBHOOK_EVENTS,
  CALL_WEBHOOK_URL_MAX_LENGTH,
  DEFAULT_CALL_WEBHOOK_EVENTS,
  type Feature,
  featureCallResponse,
  historyRequestRecordSchema,
  IDENTITY_REQUEST_HEADER,
  microsToUsd,
  TRAINING_EXPECTED_MINUTES,
  trainingResultSchema,
  transcriptionResultSchema,
} from "@prism/contract";
import { z } from "zod";
import { errorStatusesOf, STATUS_MEANINGS } from "./errors";
import { codeSamplesOf, exampleQueuedDetail, exampleResponse, JSON_RESULTS } from "./examples";
import { bodyProperty, fileProperty } from "./fields";
import { SUCCESS_HEADERS } from "./headers";
import { TRAINED_IDENTITIES_PATH } from "./operations/trained-identities";
import { priceText, tagOf } from "./tags";
import { type JsonObject, SECURITY_SCHEME } from "./types";

export function operationId(feature: Feature): string {
  return feature.id.replace(/-([a-z])/g, (_, letter: string) => letter.toUpperCase());
}

export function resultDescription(feature: Feature): string {
  if (feature.id === "pegasus-training") {
    return `The model server accepted the photos and the call was charged. \`request.response_data.body.identityId\` is the new AI Clone (its \`identity_id\` in later calls) and \`status\` its training's state, \`pending\` at first; training takes ${TRAINING_EXPECTED_MINUTES} minutes or more. Follow it with \`POST ${TRAINED_IDENTITIES_PATH}\` until it is \`ready\`, then send \`request.id\` in the \`${IDENTITY_REQUEST_HEADER}\` header with the \`identity_id\`.`;
  }
  if (JSON_RESULTS[feature.id]) {
    return "Done and charged. `request.response_data.body` holds the result.";
  }
  return "Done and charged. `request.response_data.file` is the URL of the result image (PNG); `request.request_data.files` lists the stored inputs.";
}

/**
 * The 200 answer of each kind of feature, exact: an image call always has its result `file`, a
 * transcription and a training their result `body` (no `allOf` over the general answer, whose examples
 * validators cannot check).
 */
const callResponse = (responseData: z.ZodType) =>
  featureCallResponse.extend({ request: historyRequestRecordSchema.extend({ response_data: responseData }) });
export const CALL_RESPONSE_SCHEMAS = {
  ImageCallResponse: callResponse(
    z.object({ file: z.string().describe("The result image's URL; download it with the same key.") }),
  ),
  TranscriptionCallResponse: callResponse(z.object({ body: transcriptionResultSchema })),
  TrainingCallResponse: callResponse(z.object({ body: trainingResultSchema })),
} as const;

export function responseSchemaOf(feature: Feature): JsonObject {
  const name =
    feature.id === "pegasus-training"
      ? "TrainingCallResponse"
      : JSON_RESULTS[feature.id]
        ? "TranscriptionCallResponse"
        : "ImageCallResponse";
  return { $ref: `#/components/schemas/${name}` };
}

/** The fields every feature call takes besides its own: a per-call webhook and its events. */
function callOptionProperties(): Record<string, JsonObject> {
  return {
    webhook: {
      type: "string",
      format: "uri",
      maxLength: CALL_WEBHOOK_URL_MAX_LENGTH,
      description:
        "An https URL told about this call (`request.started`, `request.completed`; see the `webhooks` of this document), signed with the organization's per-call webhook secret shown on the console's Webhooks page. http and private addresses are accepted only outside production.",
    },
    webhook_events_filter: {
      type: "string",
      default: DEFAULT_CALL_WEBHOOK_EVENTS.join(","),
      description: `Which of the call's events go to \`webhook\`, comma separated: ${CALL_WEBHOOK_EVENTS.map((event) => `\`${event}\``).join(", ")}.`,
    },
  };
}

/** `202 Accepted`: the call was queued (`Prefer: respond-async`) or outlived `Prefer: wait=N`. */
function acceptedResponse(feature: Feature): JsonObject {
  return {
    description: [
      "Accepted, with `Prefer: respond-async` (at once) or `Prefer: wait=N` (when the call had not ended",
      "after N seconds): the price is reserved and the call is queued. The body is the call as",
      "`GET /v1/requests/{id}` shows it; follow it there (its `Location`), or be told by its `webhook`,",
      "then download the result with the same key.",
    ].join(" "),
    headers: {
      Location: {
        description: "Where to follow the call: `/v1/requests/{id}`.",
        required: true,
        schema: { type: "string" },
      },
      "Preference-Applied": {
        description: "`respond-async`: the preference the server honoured.",
        required: true,
        schema: { type: "string", enum: ["respond-async"] },
      },
      ...SUCCESS_HEADERS,
    },
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/RequestDetail" },
        example: exampleQueuedDetail(feature),
      },
    },
  };
}

export function operationOf(feature: Feature, baseUrl: string): JsonObject {
  const files = feature.inputs.files;
  const fields = feature.inputs.body;
  const properties: Record<string, JsonObject> = {};
  const encoding: Record<string, JsonObject> = {};
  for (const file of files) {
    properties[file.name] = fileProperty(file);
    encoding[file.name] = { contentType: file.acceptedMimeTypes.join(", ") };
  }
  for (const field of fields) properties[field.name] = bodyProperty(field);
  Object.assign(properties, callOptionProperties());
  const required = [
    ...files.filter((file) => file.required),
    ...fields.filter((field) => field.required),
  ].map((input) => input.name);

  const notes = [feature.description, "", `**Price:** ${priceText(feature)}.`];
  if (feature.asynchronous) {
    notes.push(
      "",
      "The call answers as soon as the model has accepted the work; the work continues in the background.",
    );
  }
  notes.push(
    "",
    "Send `Prefer: respond-async` to be answered `202 Accepted` at once and follow the call with `GET /v1/requests/{id}` (or its `webhook`); see **Asynchronous calls** in the introduction.",
  );
  if (feature.requiresFirstDeposit) {
    notes.push("", "Locked (402 `first-deposit-required`) until the organization's first deposit.");
  }

  const responses: Record<string, JsonObject> = {
    "200": {
      description: resultDescription(feature),
      headers: {
        ...SUCCESS_HEADERS,
        "Preference-Applied": {
          description: "`wait=N` when the call was sent with `Prefer: wait=N` and ended within it.",
          schema: { type: "string" },
        },
      },
      content: {
        "application/json": {
          schema: responseSchemaOf(feature),
          example: exampleResponse(feature),
        },
      },
    },
  };
  responses["202"] = acceptedResponse(feature);
  for (const status of errorStatusesOf(feature)) {
    responses[String(status)] = { $ref: `#/components/responses/${STATUS_MEANINGS[status]!.name}` };
  }

  return {
    operationId: operationId(feature),
    summary: feature.name,
    description: notes.join("\n"),
    tags: [tagOf(feature)],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      ...feature.headers.map((header) => ({
        name: header.name,
        in: "header",
        required: header.required,
        description: header.requiredWith
          ? `${header.description} Required when \`${header.requiredWith}\` is sent.`
          : header.description,
        schema: { type: "string" },
      })),
      { $ref: "#/components/parameters/IdempotencyKey" },
      { $ref: "#/components/parameters/Prefer" },
    ],
    requestBody: {
      required: true,
      content: {
        "multipart/form-data": {
          schema: { type: "object", properties, ...(required.length > 0 ? { required } : {}) },
          ...(Object.keys(encoding).length > 0 ? { encoding } : {}),
        },
      },
    },
    responses,
    "x-codeSamples": codeSamplesOf(feature, baseUrl),
    "x-prism-feature": {
      id: feature.id,
      billing: {
        unit: feature.billing.unit,
        defaultPrice: microsToUsd(feature.billing.defaultPriceMicros),
        ...("identityPriceMicros" in feature.billing
          ? { identityPrice: microsToUsd(feature.billing.identityPriceMicros) }
          : {}),
        text: priceText(feature),
      },
      asynchronous: feature.asynchronous,
    },
  };
}
