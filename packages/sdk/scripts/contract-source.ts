import {
  type BodyField,
  CALL_STATES,
  CALL_WEBHOOK_EVENTS,
  ERROR_STATUS,
  FEATURES,
  type FileInput,
  type HeaderInput,
  IDEMPOTENCY_KEY_HEADER_NAME,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENT_REPLAYED_HEADER,
  PREFER_HEADER,
  PREFER_WAIT_MAX_SECONDS,
  REQUEST_CANCEL_PATH,
  REQUEST_DETAIL_PATH,
} from "@prism/contract";

/**
 * The text of src/contract.generated.ts: what the SDK needs from packages/contract (each feature's
 * endpoint, inputs and documentation, the error codes, the call states, the header names), written
 * out as plain TypeScript so the published package depends on nothing from the workspace.
 */

const HEADER_PREFIX = "x-authorization-";

/** `image-background-removal` -> `imageBackgroundRemoval`. */
export function camelCase(kebab: string): string {
  return kebab.replace(/-([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

function pascalCase(kebab: string): string {
  const camel = camelCase(kebab);
  return camel.charAt(0).toUpperCase() + camel.slice(1);
}

/** The input property a header is given as: `x-authorization-identity-request-id` -> `identityRequestId`. */
export function headerProperty(header: HeaderInput): string {
  return camelCase(
    header.name.startsWith(HEADER_PREFIX) ? header.name.slice(HEADER_PREFIX.length) : header.name,
  );
}

function docComment(lines: string[], indent: string): string {
  const text = lines.filter((line) => line.length > 0).map((line) => line.replaceAll("*/", "*\\/"));
  if (text.length === 1) return `${indent}/** ${text[0]} */\n`;
  return `${indent}/**\n${text.map((line) => `${indent} * ${line}`).join("\n")}\n${indent} */\n`;
}

function fieldType(field: BodyField): string {
  if (field.type === "enum") return (field.values ?? []).map((value) => JSON.stringify(value)).join(" | ");
  return field.type;
}

function fieldFacts(field: BodyField): string {
  const facts: string[] = [];
  if (field.min !== undefined && field.max !== undefined) facts.push(`${field.min} to ${field.max}`);
  else if (field.min !== undefined) facts.push(`at least ${field.min}`);
  else if (field.max !== undefined) facts.push(`at most ${field.max}`);
  if (field.integer) facts.push("a whole number");
  if (field.maxLength !== undefined) facts.push(`at most ${field.maxLength} characters`);
  if (field.default !== undefined) facts.push(`default ${JSON.stringify(field.default)}`);
  const text = facts.join(", ");
  return text ? `${text.charAt(0).toUpperCase()}${text.slice(1)}.` : "";
}

function fileDoc(file: FileInput): string[] {
  const count =
    file.maxCount > 1 ? `${file.minCount} to ${file.maxCount} files, ` : file.required ? "" : "Optional, ";
  const types = file.acceptedExtensions.join(", ");
  return [file.description, `${count}${types}, at most ${file.maxBytes / 1_048_576} MB each.`];
}

function inputInterface(feature: (typeof FEATURES)[number]): string {
  const name = `${pascalCase(feature.id)}Input`;
  let body = "";
  for (const file of feature.inputs.files) {
    const type = file.maxCount > 1 ? "readonly FileInput[]" : "FileInput";
    body += docComment(fileDoc(file), "  ");
    body += `  ${file.name}${file.required ? "" : "?"}: ${type};\n`;
  }
  for (const field of feature.inputs.body) {
    const debugging = field.nonProductionOnly
      ? "Outside production only (a production server refuses it)."
      : "";
    body += docComment([field.description, fieldFacts(field), debugging], "  ");
    body += `  ${field.name}${field.required ? "" : "?"}: ${fieldType(field)};\n`;
  }
  for (const header of feature.headers) {
    const when = header.requiredWith ? `Required with \`${header.requiredWith}\`.` : "";
    body += docComment([header.description, when, `Sent as the \`${header.name}\` header.`], "  ");
    body += `  ${headerProperty(header)}${header.required ? "" : "?"}: string;\n`;
  }
  return `${docComment([`The input of ${feature.name} (\`POST ${feature.endpoint}\`).`], "")}export interface ${name} {\n${body}}\n`;
}

export function contractSource(): string {
  const features = FEATURES.map((feature) => ({
    id: feature.id,
    method: camelCase(feature.id),
    name: feature.name,
    endpoint: feature.endpoint,
    files: feature.inputs.files.map((file) => file.name),
    fields: feature.inputs.body.map((field) => field.name),
    headers: Object.fromEntries(feature.headers.map((header) => [headerProperty(header), header.name])),
    asynchronous: feature.asynchronous,
  }));
  const inputMap = FEATURES.map(
    (feature) => `  ${JSON.stringify(feature.id)}: ${pascalCase(feature.id)}Input;`,
  );
  const methods = FEATURES.map(
    (feature) =>
      `${docComment([`${feature.name}: ${feature.description}`, `\`POST ${feature.endpoint}\`; waits for the result.`], "  ")}` +
      `  ${camelCase(feature.id)}(input: ${pascalCase(feature.id)}Input, options?: CallOptions): Promise<FeatureResult<${JSON.stringify(feature.id)}>> {\n` +
      `    return this.call(${JSON.stringify(feature.id)}, input, options);\n  }\n`,
  );
  return [
    "// Generated from packages/contract by `npm run generate -w @prism/sdk`; do not edit.",
    "// contract.generated.test.ts fails when this file is stale.",
    'import type { CallOptions, FeatureResult, FileInput } from "./types.js";',
    "",
    `export const ERROR_STATUS = ${JSON.stringify(ERROR_STATUS, null, 2)} as const;`,
    "/** Every error code the API answers with (the error body's `error`). */",
    "export type ErrorCode = keyof typeof ERROR_STATUS;",
    "",
    `/** A call's state: waiting for a slot, running, then one of the three ends. */`,
    `export const CALL_STATES = ${JSON.stringify(CALL_STATES)} as const;`,
    "export type CallState = (typeof CALL_STATES)[number];",
    `export const CALL_WEBHOOK_EVENTS = ${JSON.stringify(CALL_WEBHOOK_EVENTS)} as const;`,
    "export type CallWebhookEvent = (typeof CALL_WEBHOOK_EVENTS)[number];",
    "",
    `export const REQUEST_DETAIL_PATH = ${JSON.stringify(REQUEST_DETAIL_PATH)};`,
    `export const REQUEST_CANCEL_PATH = ${JSON.stringify(REQUEST_CANCEL_PATH)};`,
    `export const IDEMPOTENCY_KEY_HEADER = ${JSON.stringify(IDEMPOTENCY_KEY_HEADER_NAME)};`,
    `export const IDEMPOTENCY_KEY_MAX_LENGTH = ${IDEMPOTENCY_KEY_MAX_LENGTH};`,
    `export const IDEMPOTENT_REPLAYED_HEADER = ${JSON.stringify(IDEMPOTENT_REPLAYED_HEADER)};`,
    `export const PREFER_HEADER = ${JSON.stringify(PREFER_HEADER)};`,
    `export const PREFER_WAIT_MAX_SECONDS = ${PREFER_WAIT_MAX_SECONDS};`,
    "",
    "/** The feature calls: endpoint, multipart file and text fields, headers given as input properties. */",
    `export const FEATURES = ${JSON.stringify(features, null, 2)} as const;`,
    'export type FeatureId = (typeof FEATURES)[number]["id"];',
    "",
    ...FEATURES.map(inputInterface),
    "/** Each feature's input by its id. */",
    `export interface FeatureInputs {\n${inputMap.join("\n")}\n}`,
    "",
    "/** One method per feature; the client implements `call`. */",
    "export abstract class FeatureMethods {",
    "  protected abstract call<F extends FeatureId>(feature: F, input: FeatureInputs[F], options?: CallOptions): Promise<FeatureResult<F>>;",
    "",
    methods.join("\n"),
    "}",
    "",
  ].join("\n");
}
