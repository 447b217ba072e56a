export type JsonObject = Record<string, unknown>;

export interface OpenApiDocument extends JsonObject {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string };
  servers: { url: string }[];
  paths: Record<string, { get?: JsonObject; post?: JsonObject }>;
  components: {
    schemas: Record<string, JsonObject>;
    responses: Record<string, JsonObject>;
    securitySchemes: Record<string, JsonObject>;
    parameters: Record<string, JsonObject>;
    headers: Record<string, JsonObject>;
  };
  tags: { name: string; description: string }[];
  /** What the organization's webhook endpoints receive (OpenAPI 3.1 `webhooks`). */
  webhooks: Record<string, { post: JsonObject }>;
}

export interface OpenApiOptions {
  /** `info.version` (default "1.0.0"). */
  version?: string;
}

export const ERROR_SCHEMA_REF = "#/components/schemas/Error";
export const SECURITY_SCHEME = "apiKey";
