import { z } from "zod";
import type { JsonObject } from "./types";

/**
 * A zod schema as a JSON Schema (draft 2020-12, which OpenAPI 3.1 uses), without noise for readers:
 * of what the schema produces (answers) or, with `io: "input"`, of what it accepts (request bodies,
 * where a field with a default is optional).
 */
export function jsonSchemaOf(schema: z.ZodType, io: "input" | "output" = "output"): JsonObject {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" });
  return tidy(generated) as JsonObject;
}

export function tidy(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(tidy);
  if (typeof value !== "object" || value === null) return value;
  const entries = Object.entries(value as JsonObject).filter(
    ([key, inner]) =>
      key !== "$schema" &&
      // A `format` says it better than zod's long date-time regular expression.
      !(key === "pattern" && "format" in (value as JsonObject)) &&
      // Answers may gain fields over time; clients must ignore the ones they do not know.
      !(key === "additionalProperties" && inner === false),
  );
  return Object.fromEntries(entries.map(([key, inner]) => [key, tidy(inner)]));
}
