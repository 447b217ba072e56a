import {
  API_KEY_PREFIX,
  apiKeyLimitsSchema,
  calls,
  ERROR_CODES,
  FEATURES,
  featureCallResponse,
  PRODUCT_NAME,
  REQUEST_DETAIL_PATH,
  requestDetailSchema,
  trainingResultSchema,
  transcriptionResultSchema,
  USAGE_PATH,
  usageResponse,
} from "@prism/contract";
import { errorResponses } from "./errors";
import { operationOf } from "./feature-operations";
import { idempotencyKeyParameter, RATE_LIMIT_HEADERS } from "./headers";
import { jsonSchemaOf } from "./json-schema";
import { FILE_ROUTE, fileDownloadOperation } from "./operations/files";
import { requestDetailOperation } from "./operations/request-detail";
import { TRAINED_IDENTITIES_PATH, trainedIdentitiesOperation } from "./operations/trained-identities";
import { usageOperation } from "./operations/usage";
import { infoDescription, modelServerGuide } from "./prose";
import { TAGS, tagOf } from "./tags";
import { type OpenApiDocument, type OpenApiOptions, SECURITY_SCHEME } from "./types";
import { webhooksSection } from "./webhooks";
/**
 * The public API's OpenAPI 3.1 document, generated from the feature catalog and the contract's zod
 * schemas: adding a feature or a field to the catalog documents it, with nothing written twice. Its
 * parts live beside this file: errors, fields, examples, the feature operations, the GET operations
 * (operations/), the webhooks, and the prose as Markdown (prose/).
 */
export function buildOpenApiDocument(options: OpenApiOptions = {}): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = {};
  for (const feature of FEATURES) {
    paths[feature.endpoint] = { post: operationOf(feature) };
  }
  paths[TRAINED_IDENTITIES_PATH] = { post: trainedIdentitiesOperation() };
  paths[FILE_ROUTE] = { get: fileDownloadOperation() };
  paths[REQUEST_DETAIL_PATH] = { get: requestDetailOperation() };
  paths[USAGE_PATH] = { get: usageOperation() };
  const usedTags = new Set([...FEATURES.map(tagOf), TAGS.files.name, TAGS.usage.name]);
  return {
    openapi: "3.1.0",
    info: {
      title: `${PRODUCT_NAME} API`,
      version: options.version ?? "1.0.0",
      // The model-server guide closes the introduction, under the anchor the console links to.
      description: `${infoDescription()}\n\n### Model servers\n\n${modelServerGuide()}`,
    },
    servers: [{ url: "/" }],
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
        FeatureCallResponse: jsonSchemaOf(featureCallResponse),
        TranscriptionResult: jsonSchemaOf(transcriptionResultSchema),
        TrainingResult: jsonSchemaOf(trainingResultSchema),
        TrainedIdentities: jsonSchemaOf(calls.playground.getTrainedIdentities.response),
        ApiKeyLimits: jsonSchemaOf(apiKeyLimitsSchema),

        RequestDetail: jsonSchemaOf(requestDetailSchema),
        Usage: jsonSchemaOf(usageResponse),
        Error: {
          type: "object",
          required: ["error", "message"],
          properties: {
            error: {
              type: "string",
              enum: [...ERROR_CODES],
              description: "A stable, machine-readable code.",
            },
            message: { type: "string", description: "A human-readable explanation." },
            requestId: {
              type: "string",
              description: "The request's id, also in the `x-request-id` header; quote it to support.",
            },
          },
        },
      },
      responses: errorResponses(),
      parameters: { IdempotencyKey: idempotencyKeyParameter() },
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
