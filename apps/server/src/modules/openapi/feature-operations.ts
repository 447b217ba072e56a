import {
  type Feature,
  IDENTITY_REQUEST_HEADER,
  microsToUsd,
  TRAINING_EXPECTED_MINUTES,
} from "@prism/contract";
import { errorStatusesOf, STATUS_MEANINGS } from "./errors";
import { curlExample, exampleResponse, JSON_RESULTS } from "./examples";
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

export function responseSchemaOf(feature: Feature): JsonObject {
  const base = { $ref: "#/components/schemas/FeatureCallResponse" };
  const jsonResult = JSON_RESULTS[feature.id];
  if (!jsonResult) return base;
  const resultName = feature.id === "pegasus-training" ? "TrainingResult" : "TranscriptionResult";
  return {
    allOf: [
      base,
      {
        type: "object",
        properties: {
          request: {
            type: "object",
            properties: {
              response_data: {
                type: "object",
                properties: { body: { $ref: `#/components/schemas/${resultName}` } },
              },
            },
          },
        },
      },
    ],
  };
}

export function operationOf(feature: Feature): JsonObject {
  const files = feature.inputs.files;
  const fields = feature.inputs.body;
  const properties: Record<string, JsonObject> = {};
  const encoding: Record<string, JsonObject> = {};
  for (const file of files) {
    properties[file.name] = fileProperty(file);
    encoding[file.name] = { contentType: file.acceptedMimeTypes.join(", ") };
  }
  for (const field of fields) properties[field.name] = bodyProperty(field);
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
  if (feature.requiresFirstDeposit) {
    notes.push("", "Locked (402 `first-deposit-required`) until the organization's first deposit.");
  }

  const responses: Record<string, JsonObject> = {
    "200": {
      description: resultDescription(feature),
      headers: SUCCESS_HEADERS,
      content: {
        "application/json": {
          schema: responseSchemaOf(feature),
          example: exampleResponse(feature),
        },
      },
    },
  };
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
    "x-codeSamples": [{ lang: "cURL", label: "cURL", source: curlExample(feature) }],
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
