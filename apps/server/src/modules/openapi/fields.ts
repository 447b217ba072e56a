import type { BodyField, FileInput } from "@prism/contract";
import type { JsonObject } from "./types";

export function megabytes(bytes: number): string {
  return `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;
}

export function fileLimits(file: FileInput): string {
  const limits = [`${file.acceptedExtensions.join(", ")}`, `at most ${megabytes(file.maxBytes)}`];
  if (file.maxPixels)
    limits.push(`at most ${Math.round((file.maxPixels / 1024 / 1024) * 10) / 10} megapixels`);
  if (file.maxSeconds) limits.push(`at most ${file.maxSeconds / 60} minutes long`);
  return limits.join("; ");
}

/** Said of the debugging inputs the playground offers only outside production. */
export const NON_PRODUCTION_NOTE =
  "A debugging option: a production deployment refuses calls that send it (400 `invalid-input`).";

export function fileProperty(file: FileInput): JsonObject {
  const binary = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };
  const description = `${file.description} ${capitalize(fileLimits(file))}.${file.nonProductionOnly ? ` ${NON_PRODUCTION_NOTE}` : ""}`;
  if (file.maxCount > 1) {
    return {
      type: "array",
      items: binary,
      minItems: file.minCount,
      maxItems: file.maxCount,
      description: `${description} Send ${file.minCount} to ${file.maxCount} files, repeating the field name.`,
      "x-accepted-types": file.acceptedMimeTypes,
    };
  }
  return { ...binary, description, "x-accepted-types": file.acceptedMimeTypes };
}

export function bodyProperty(field: BodyField): JsonObject {
  const schema: JsonObject = {
    description: field.nonProductionOnly ? `${field.description} ${NON_PRODUCTION_NOTE}` : field.description,
  };
  switch (field.type) {
    case "string":
      schema.type = "string";
      if (field.maxLength !== undefined) schema.maxLength = field.maxLength;
      break;
    case "number":
      schema.type = field.integer ? "integer" : "number";
      if (field.min !== undefined) schema.minimum = field.min;
      if (field.max !== undefined) schema.maximum = field.max;
      if (field.step !== undefined) schema["x-step"] = field.step;
      break;
    case "boolean":
      schema.type = "boolean";
      break;
    case "enum":
      schema.type = "string";
      schema.enum = [...(field.values ?? [])];
      break;
  }
  if (field.default !== undefined) schema.default = field.default;
  return schema;
}

export function capitalize(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
