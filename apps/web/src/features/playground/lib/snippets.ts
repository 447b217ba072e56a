import { type FeatureDefinition, IDEMPOTENCY_KEY_HEADER_NAME } from "@prism/contract";
import type { Snippet, SnippetLanguage } from "../../../components/api-call-modal";

/** The placeholder the user replaces with a key from Projects → API Keys. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";

export type { Snippet, SnippetLanguage };

export type SnippetValue = string | number | boolean;

export interface SnippetInputs {
  /** The console's origin, e.g. https://console.example.com; the endpoint is appended. */
  origin: string;
  /** Non-file fields as the call would send them (snake_case names of the catalog). */
  body?: Record<string, SnippetValue | undefined>;
  /** File names per file field; defaults to `<field>.png` (or `<field>.mp3` for audio). */
  fileNames?: Record<string, readonly string[] | undefined>;
  /** Extra request headers besides the key, e.g. the AI Clone's `x-authorization-identity-request-id`. */
  headers?: Record<string, string>;
}

interface Part {
  name: string;
  kind: "file" | "text";
  value: string;
}

function defaultFileName(name: string, kind: "image" | "audio", index: number, count: number): string {
  const base = count > 1 ? `${name}_${index + 1}` : name;
  return `${base}.${kind === "audio" ? "mp3" : "png"}`;
}

/**
 * The multipart parts of a call, in catalog order: every required file field (and the optional ones
 * the inputs name), then every body field that has a value. Fields left out fall back to the API's
 * defaults.
 */
export function snippetParts(
  feature: Pick<FeatureDefinition, "inputs">,
  inputs: Pick<SnippetInputs, "body" | "fileNames">,
): Part[] {
  const parts: Part[] = [];
  for (const file of feature.inputs.files) {
    const given = inputs.fileNames?.[file.name];
    if (!file.required && (!given || given.length === 0)) continue;
    const count = given && given.length > 0 ? given.length : file.minCount;
    for (let index = 0; index < count; index += 1) {
      parts.push({
        name: file.name,
        kind: "file",
        value: given?.[index] ?? defaultFileName(file.name, file.kind, index, count),
      });
    }
  }
  for (const field of feature.inputs.body) {
    const value = inputs.body?.[field.name];
    if (value === undefined || value === "") continue;
    parts.push({ name: field.name, kind: "text", value: String(value) });
  }
  return parts;
}

function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

function pyString(value: string): string {
  return JSON.stringify(value);
}

type Headers = readonly [name: string, value: string][];

/** The example value of the optional Idempotency-Key line. */
export const IDEMPOTENCY_KEY_EXAMPLE = "a-unique-id-per-request";
/** Why the line is there, said in the comment beside it. */
const IDEMPOTENCY_NOTE = "optional: a retry with the same key is answered without running or charging again";

function headerList(extra: Record<string, string> | undefined): Headers {
  return [["Authorization", `Bearer ${API_KEY_PLACEHOLDER}`], ...Object.entries(extra ?? {})];
}

function curlSnippet(url: string, headers: Headers, parts: Part[]): string {
  const lines = [
    `curl -X POST ${shellQuote(url)}`,
    ...headers.map(([name, value]) => `  -H ${shellQuote(`${name}: ${value}`)}`),
    ...parts.map((part) =>
      part.kind === "file"
        ? `  -F ${shellQuote(`${part.name}=@${part.value}`)}`
        : `  -F ${shellQuote(`${part.name}=${part.value}`)}`,
    ),
  ];
  return lines.join(" \\\n");
}

function pythonSnippet(url: string, headers: Headers, parts: Part[]): string {
  const files = parts.filter((part) => part.kind === "file");
  const data = parts.filter((part) => part.kind === "text");
  const lines = [
    "import requests",
    "",
    `url = ${pyString(url)}`,
    "headers = {",
    ...headers.map(([name, value]) => `    ${pyString(name)}: ${pyString(value)},`),
    `    # ${pyString(IDEMPOTENCY_KEY_HEADER_NAME)}: ${pyString(IDEMPOTENCY_KEY_EXAMPLE)},  # ${IDEMPOTENCY_NOTE}`,
    "}",
  ];
  lines.push(
    data.length > 0
      ? `data = {\n${data.map((part) => `    ${pyString(part.name)}: ${pyString(part.value)},`).join("\n")}\n}`
      : "data = {}",
  );
  lines.push(
    files.length > 0
      ? `files = [\n${files.map((part) => `    (${pyString(part.name)}, open(${pyString(part.value)}, "rb")),`).join("\n")}\n]`
      : "files = []",
  );
  lines.push(
    "",
    "response = requests.post(url, headers=headers, data=data, files=files)",
    "response.raise_for_status()",
    "print(response.json())",
  );
  return lines.join("\n");
}

function jsKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : pyString(name);
}

function javascriptSnippet(url: string, headers: Headers, parts: Part[], typed: boolean): string {
  const lines = [
    `import { readFile } from "node:fs/promises";`,
    "",
    "const form = new FormData();",
    ...parts.map((part) =>
      part.kind === "file"
        ? `form.append(${pyString(part.name)}, new Blob([await readFile(${pyString(part.value)})]), ${pyString(part.value)});`
        : `form.append(${pyString(part.name)}, ${pyString(part.value)});`,
    ),
    "",
    `const response${typed ? ": Response" : ""} = await fetch(${pyString(url)}, {`,
    `  method: "POST",`,
    "  headers: {",
    ...headers.map(([name, value]) => `    ${jsKey(name)}: ${pyString(value)},`),
    `    // ${pyString(IDEMPOTENCY_KEY_HEADER_NAME)}: ${pyString(IDEMPOTENCY_KEY_EXAMPLE)}, // ${IDEMPOTENCY_NOTE}`,
    "  },",
    "  body: form,",
    "});",
    `if (!response.ok) throw new Error("Request failed: " + response.status);`,
  ];
  if (typed) {
    lines.push(
      "const result: { balance: number; cost: number; request: { id: string; response_data: { file?: string } } } =",
      "  await response.json();",
    );
  } else {
    lines.push("const result = await response.json();");
  }
  lines.push("console.log(result);");
  return lines.join("\n");
}

/** The API Call Details snippets of one feature for the current inputs. */
export function generateSnippets(
  feature: Pick<FeatureDefinition, "endpoint" | "inputs">,
  inputs: SnippetInputs,
): Snippet[] {
  const url = `${inputs.origin.replace(/\/+$/, "")}${feature.endpoint}`;
  const parts = snippetParts(feature, inputs);
  const headers = headerList(inputs.headers);
  return [
    { language: "curl", label: "cURL", syntax: "bash", code: curlSnippet(url, headers, parts) },
    { language: "python", label: "Python", syntax: "python", code: pythonSnippet(url, headers, parts) },
    {
      language: "javascript",
      label: "JavaScript",
      syntax: "js",
      code: javascriptSnippet(url, headers, parts, false),
    },
    {
      language: "typescript",
      label: "TypeScript",
      syntax: "ts",
      code: javascriptSnippet(url, headers, parts, true),
    },
  ];
}
