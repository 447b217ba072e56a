import type { FeatureDefinition } from "./catalog";
import { IDEMPOTENCY_KEY_HEADER_NAME } from "./limits";

/**
 * Code that calls a feature, written once for the console's API Call Details and the API reference's
 * examples, so the two never teach different calls. Imported as `@prism/contract/snippets`, apart from
 * the index: the index is in every page's first chunk (/login included), and only the playground and
 * the reference need this.
 */

/** The placeholder the user replaces with a key from Projects → API Keys. */
export const API_KEY_PLACEHOLDER = "YOUR_API_KEY";
/** The environment variable ready-to-run snippets read the key from (the reference, the quickstart). */
export const API_KEY_VARIABLE = "$PRISM_API_KEY";

/**
 * One language's code of a call, as the API Call Details modal shows it: each language once as a
 * synchronous call, and once submitted asynchronously (`Prefer: respond-async`), followed to its end
 * and its result fetched — the way to call anything slow behind a proxy (docs/deploy.md).
 */
export type SnippetLanguage =
  | "curl"
  | "python"
  | "javascript"
  | "typescript"
  | "curl-async"
  | "python-async"
  | "javascript-async";

export interface Snippet {
  language: SnippetLanguage;
  label: string;
  /** The highlighter's language name (Mantine CodeHighlight-style). */
  syntax: string;
  code: string;
}

export type SnippetValue = string | number | boolean;

export interface SnippetInputs {
  /** The console's origin, e.g. https://console.example.com (or `$ORIGIN`); the endpoint is appended. */
  origin: string;
  /** What stands for the API key; the console's placeholder unless given (the reference uses `$PRISM_API_KEY`). */
  apiKey?: string;
  /**
   * `$NAME` in values stays expandable by the shell (the reference's examples are written against
   * environment variables). Off for the console, whose values are what the user typed, `$` included.
   */
  shellVariables?: boolean;
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

function shellQuote(value: string, shellVariables: boolean): string {
  if (shellVariables && /\$[A-Za-z_]/.test(value)) return `"${value.replace(/["\\`]/g, "\\$&")}"`;
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

function headerList(inputs: Pick<SnippetInputs, "apiKey" | "headers">): Headers {
  return [
    ["Authorization", `Bearer ${inputs.apiKey ?? API_KEY_PLACEHOLDER}`],
    ...Object.entries(inputs.headers ?? {}),
  ];
}

function urlOf(feature: Pick<FeatureDefinition, "endpoint">, origin: string): string {
  return `${origin.replace(/\/+$/, "")}${feature.endpoint}`;
}

function curlCode(url: string, headers: Headers, parts: Part[], shellVariables: boolean): string {
  const quote = (value: string) => shellQuote(value, shellVariables);
  const lines = [
    `curl -X POST ${quote(url)}`,
    ...headers.map(([name, value]) => `  -H ${quote(`${name}: ${value}`)}`),
    ...parts.map((part) =>
      part.kind === "file"
        ? `  -F ${quote(`${part.name}=@${part.value}`)}`
        : `  -F ${quote(`${part.name}=${part.value}`)}`,
    ),
  ];
  return lines.join(" \\\n");
}

/** The cURL call of one feature: multipart, the key in `Authorization`, the parts in catalog order. */
export function curlSnippet(
  feature: Pick<FeatureDefinition, "endpoint" | "inputs">,
  inputs: SnippetInputs,
): string {
  return curlCode(
    urlOf(feature, inputs.origin),
    headerList(inputs),
    snippetParts(feature, inputs),
    inputs.shellVariables ?? false,
  );
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

/** Where a call's state is read: the requests path on the console's origin. */
function requestsUrlOf(origin: string): string {
  return `${origin.replace(/\/+$/, "")}/v1/requests/`;
}

function curlAsyncCode(
  url: string,
  origin: string,
  headers: Headers,
  parts: Part[],
  shellVariables: boolean,
): string {
  const quote = (value: string) => shellQuote(value, shellVariables);
  const authorization = headers.find(([name]) => name === "Authorization");
  const auth = authorization ? ` -H ${quote(`${authorization[0]}: ${authorization[1]}`)}` : "";
  const submit = curlCode(url, [...headers, ["Prefer", "respond-async"]], parts, shellVariables);
  return [
    "# 1. Submit: 202 Accepted at once, with the call's id, its status and where to follow it.",
    "#    (Add -F 'webhook=https://…' to be told when it ends instead of asking.)",
    submit,
    "",
    "# 2. Follow it until its status is succeeded, failed or canceled (REQUEST_ID is the answer's id).",
    `curl ${quote(`${requestsUrlOf(origin)}REQUEST_ID`)}${auth}`,
    "",
    "# 3. Fetch the result: the file URL in response_data.file.",
    `curl -o result${url.includes("/speech/") ? ".json" : ".png"} RESULT_FILE_URL${auth}`,
  ].join("\n");
}

function pythonAsyncSnippet(url: string, headers: Headers, parts: Part[]): string {
  const sync = pythonSnippet(url, [...headers, ["Prefer", "respond-async"]], parts).split("\n");
  const submitAt = sync.findIndex((line) => line.startsWith("response = requests.post"));
  return [
    ...sync
      .slice(0, submitAt)
      .map((line) =>
        line === "import requests"
          ? "import time\nfrom urllib.parse import urljoin\n\nimport requests"
          : line,
      ),
    "# Submitted without waiting: 202 Accepted with the call's id and where to follow it.",
    "call = requests.post(url, headers=headers, data=data, files=files)",
    "call.raise_for_status()",
    "call = call.json()",
    'while call["status"] in ("queued", "running"):',
    "    time.sleep(1)",
    '    call = requests.get(urljoin(url, call["urls"]["get"]), headers=headers).json()',
    'if call["status"] != "succeeded":',
    `    raise SystemExit(f"{call['status']}: {call['error']} {call['error_message']}")`,
    'result = call["response_data"]',
    'if "file" in result:',
    '    with open("result.png", "wb") as out:',
    '        out.write(requests.get(urljoin(url, result["file"]), headers=headers).content)',
    "else:",
    '    print(result["body"])',
  ].join("\n");
}

function javascriptAsyncSnippet(url: string, headers: Headers, parts: Part[]): string {
  const sync = javascriptSnippet(url, [...headers, ["Prefer", "respond-async"]], parts, false).split("\n");
  const end = sync.findIndex((line) => line.startsWith("if (!response.ok)"));
  return [
    ...sync
      .slice(0, end)
      .map((line) =>
        line.startsWith("import { readFile }")
          ? `import { readFile, writeFile } from "node:fs/promises";`
          : line,
      ),
    `if (!response.ok) throw new Error("Request failed: " + response.status + " " + (await response.text()));`,
    "// Submitted without waiting: 202 Accepted with the call's id and where to follow it.",
    "let call = await response.json();",
    `while (call.status === "queued" || call.status === "running") {`,
    "  await new Promise((resolve) => setTimeout(resolve, 1000));",
    `  call = await (await fetch(new URL(call.urls.get, ${pyString(url)}), { headers: { Authorization: ` +
      pyString(headers.find(([name]) => name === "Authorization")?.[1] ?? "") +
      " } })).json();",
    "}",
    `if (call.status !== "succeeded") throw new Error(call.status + ": " + call.error + " " + call.error_message);`,
    "if (call.response_data.file) {",
    `  const file = await fetch(new URL(call.response_data.file, ${pyString(url)}), { headers: { Authorization: ` +
      pyString(headers.find(([name]) => name === "Authorization")?.[1] ?? "") +
      " } });",
    `  await writeFile("result.png", Buffer.from(await file.arrayBuffer()));`,
    "} else {",
    "  console.log(call.response_data.body);",
    "}",
  ].join("\n");
}

/** The API Call Details snippets of one feature for the current inputs. */
export function generateSnippets(
  feature: Pick<FeatureDefinition, "endpoint" | "inputs">,
  inputs: SnippetInputs,
): Snippet[] {
  const url = urlOf(feature, inputs.origin);
  const parts = snippetParts(feature, inputs);
  const headers = headerList(inputs);
  return [
    { language: "curl", label: "cURL", syntax: "bash", code: curlSnippet(feature, inputs) },
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
    {
      language: "curl-async",
      label: "cURL (async)",
      syntax: "bash",
      code: curlAsyncCode(url, inputs.origin, headers, parts, inputs.shellVariables ?? false),
    },
    {
      language: "python-async",
      label: "Python (async)",
      syntax: "python",
      code: pythonAsyncSnippet(url, headers, parts),
    },
    {
      language: "javascript-async",
      label: "JavaScript (async)",
      syntax: "js",
      code: javascriptAsyncSnippet(url, headers, parts),
    },
  ];
}
