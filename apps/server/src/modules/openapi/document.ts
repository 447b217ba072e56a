import {
  API_KEY_PREFIX,
  apiKeyLimitsSchema,
  calls,
  FEATURES,
  PRODUCT_NAME,
  REQUEST_CANCEL_PATH,
  REQUEST_DETAIL_PATH,
  requestDetailSchema,
  trainingResultSchema,
  transcriptionResultSchema,
  USAGE_PATH,
  usageResponse,
} from "@prism/contract";
import { errorResponses, errorSchema } from "./errors";
import { CALL_RESPONSE_SCHEMAS, operationOf } from "./feature-operations";
import { idempotencyKeyParameter, preferParameter, RATE_LIMIT_HEADERS } from "./headers";
import { jsonSchemaOf } from "./json-schema";
import { FILE_ROUTE, fileDownloadOperation } from "./operations/files";
import { cancelRequestOperation, requestDetailOperation } from "./operations/request-detail";
import { TRAINED_IDENTITIES_PATH, trainedIdentitiesOperation } from "./operations/trained-identities";
import { usageOperation } from "./operations/usage";
import { infoDescription, modelServerGuide } from "./prose";
import { TAGS, tagOf } from "./tags";
import {
  DEFAULT_BASE_URL,
  type JsonObject,
  type OpenApiDocument,
  type OpenApiOptions,
  SECURITY_SCHEME,
} from "./types";
import { webhooksSection } from "./webhooks";

/** The 200 answers of the three kinds of feature, their JSON results named as their own schemas. */
function callResponseSchemas(): Record<string, JsonObject> {
  const schemas: Record<string, JsonObject> = {};
  const results: Record<string, string> = {
    TranscriptionCallResponse: "TranscriptionResult",
    TrainingCallResponse: "TrainingResult",
  };
  for (const [name, zodSchema] of Object.entries(CALL_RESPONSE_SCHEMAS)) {
    const schema = jsonSchemaOf(zodSchema) as { properties: { request: JsonObject } };
    const result = results[name];
    if (result) {
      const request = schema.properties.request as { properties: { response_data: JsonObject } };
      request.properties.response_data = {
        type: "object",
        required: ["body"],
        properties: { body: { $ref: `#/components/schemas/${result}` } },
      };
    }
    schemas[name] = schema;
  }
  return schemas;
}

/**
 * The public API's OpenAPI 3.1 document, generated from the feature catalog and the contract's zod
 * schemas: adding a feature or a field to the catalog documents it, with nothing written twice. Its
 * parts live beside this file: errors, fields, examples, the feature operations, the GET operations
 * (operations/), the webhooks, and the prose as Markdown (prose/).
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, "");
  const paths: OpenApiDocument["paths"] = {};
  for (const feature of FEATURES) {
    paths[feature.endpoint] = { post: operationOf(feature, baseUrl) };
  }
  paths[TRAINED_IDENTITIES_PATH] = { post: trainedIdentitiesOperation(baseUrl) };
  paths[FILE_ROUTE] = { get: fileDownloadOperation(baseUrl) };
  paths[REQUEST_DETAIL_PATH] = { get: requestDetailOperation(baseUrl) };
  paths[REQUEST_CANCEL_PATH] = { post: cancelRequestOperation(baseUrl) };
  paths[USAGE_PATH] = { get: usageOperation(baseUrl) };
  const usedTags = new Set([...FEATURES.map(tagOf), TAGS.files.name, TAGS.usage.name]);
  return {
    openapi: "3.1.0",
    info: {
      title: `${PRODUCT_NAME} API`,
      version: options.version ?? "1.0.0",
      // The model-server guide closes the introduction, under the anchor the console links to.
      description: `${infoDescription()}\n\n### Model servers\n\n${modelServerGuide()}`,
      license: { name: "AGPL-3.0-only", identifier: "AGPL-3.0-only" },
    },
    servers: [{ url: baseUrl, description: "This deployment." }],
    security: [{ [SECURITY_SCHEME]: [] }],
    tags: Object.values(TAGS)
      .filter((tag) => usedTags.has(tag.name))
      .map((tag) => ({ ...tag })),
    paths,
    components: {
      securitySchemes: {
        [SECURITY_SCHEME]: {
          type: "http",
          scheme: "bearer",
          bearerFormat: `${API_KEY_PREFIX}...`,
          description: `An API key created in the console: \`Authorization: Bearer ${API_KEY_PREFIX}...\`.`,
        },
      },
      schemas: {
        ...callResponseSchemas(),
        TranscriptionResult: jsonSchemaOf(transcriptionResultSchema),
        TrainingResult: jsonSchemaOf(trainingResultSchema),
        TrainedIdentities: jsonSchemaOf(calls.playground.getTrainedIdentities.response),
        ApiKeyLimits: jsonSchemaOf(apiKeyLimitsSchema),

        RequestDetail: jsonSchemaOf(requestDetailSchema),
        Usage: jsonSchemaOf(usageResponse),
        Error: errorSchema(),
      },
      responses: errorResponses(),
      parameters: { IdempotencyKey: idempotencyKeyParameter(), Prefer: preferParameter() },
      headers: {
        ...RATE_LIMIT_HEADERS,
        "Idempotent-Replayed": {
          description:
            "`true` when the answer is the stored response of an earlier call with the same Idempotency-Key.",
          schema: { type: "string", enum: ["true"] },
        },
      },
    },
    webhooks: webhooksSection(),
  };
}
