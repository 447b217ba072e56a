export type JsonObject = Record<string, unknown>;

export interface OpenApiDocument extends JsonObject {
  openapi: "3.1.0";
  info: { title: string; version: string; description: string; license: JsonObject };
  servers: { url: string; description?: string }[];
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
  /**
   * The deployment's absolute base URL (`PUBLIC_URL`, or the origin the document was asked on): the
   * `servers` entry and the address in every code sample. DEFAULT_BASE_URL when not given.
   */
  baseUrl?: string;
}

/** The base URL of a document built without one: a local server on its default port. */
export const DEFAULT_BASE_URL = "http://localhost:3000";

export const ERROR_SCHEMA_REF = "#/components/schemas/Error";
export const SECURITY_SCHEME = "apiKey";
