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
      const name = given?.[index];
      parts.push({
        name: file.name,
        kind: "file",
        value: name ? fileNameOf(file, name) : defaultFileName(file.name, file.kind, index, count),
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

/**
 * The environment variable a header value reads its key from (`Bearer $PRISM_API_KEY`), so Python and
 * JavaScript read it from the environment as the shell does, instead of sending the text `$PRISM_API_KEY`.
 */
function environmentKeyOf(value: string): string | undefined {
  return /^Bearer \$([A-Za-z_][A-Za-z0-9_]*)$/.exec(value)?.[1];
}

function pyValue(value: string): string {
  const variable = environmentKeyOf(value);
  return variable ? `"Bearer " + os.environ[${pyString(variable)}]` : pyString(value);
}

function jsValue(value: string): string {
  const variable = environmentKeyOf(value);
  return variable ? `\`Bearer \${process.env.${variable}}\`` : pyString(value);
}

function usesEnvironment(headers: Headers): boolean {
  return headers.some(([, value]) => environmentKeyOf(value) !== undefined);
}

/**
 * A file name the call accepts: a name the inputs gave without an accepted extension (a stored input
 * whose URL has none, say) takes the field's first accepted one, so a speech call never uploads `audio.png`.
 */
function fileNameOf(file: FeatureDefinition["inputs"]["files"][number], given: string): string {
  const lower = given.toLowerCase();
  if (file.acceptedExtensions.some((extension) => lower.endsWith(extension.toLowerCase()))) return given;
  const stem = given.replace(/\.[A-Za-z0-9]{1,5}$/, "");
  return `${stem}${file.acceptedExtensions[0] ?? ""}`;
}

function urlOf(feature: Pick<FeatureDefinition, "endpoint">, origin: string): string {
  return `${origin.replace(/\/+$/, "")}${feature.endpoint}`;
}

function curlCode(url: string, headers: Headers, parts: Part[], shellVariables: boolean): string {
  const quote = (value: string) => shellQuote(value, shellVariables);
  const lines = [
    `curl -X POST ${quote(url)}`,
    // A key read from the environment (`Bearer $PRISM_API_KEY`) is always left to the shell to expand.
    ...headers.map(([name, value]) =>
      environmentKeyOf(value) ? `  -H "${name}: ${value}"` : `  -H ${quote(`${name}: ${value}`)}`,
    ),
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

/** Where the result goes: an image result is saved as a PNG, a JSON result printed. */
const RESULT_FILE = "result.png";

/** The request: imports, URL, headers (the Idempotency-Key line commented out), fields and files. */
function pythonRequest(url: string, headers: Headers, parts: Part[], extraImports: string[] = []): string[] {
  const files = parts.filter((part) => part.kind === "file");
  const data = parts.filter((part) => part.kind === "text");
  const imports = [...(usesEnvironment(headers) ? ["import os"] : []), ...extraImports];
  return [
    ...imports.sort(),
    "from urllib.parse import urljoin",
    "",
    "import requests",
    "",
    `url = ${pyString(url)}`,
    "headers = {",
    ...headers.map(([name, value]) => `    ${pyString(name)}: ${pyValue(value)},`),
    `    # ${pyString(IDEMPOTENCY_KEY_HEADER_NAME)}: ${pyString(IDEMPOTENCY_KEY_EXAMPLE)},  # ${IDEMPOTENCY_NOTE}`,
    "}",
    // Text fields go as form parts too (`(None, value)`), so the body is multipart even without a file.
    "files = [",
    ...data.map((part) => `    (${pyString(part.name)}, (None, ${pyString(part.value)})),`),
    ...files.map((part) => `    (${pyString(part.name)}, open(${pyString(part.value)}, "rb")),`),
    "]",
    "",
  ];
}

/** Python's lines that stop on an error answer, printing its code, message and request id. */
const PYTHON_FAIL_ON_ERROR = [
  "if not response.ok:",
  "    error = response.json()",
  `    raise SystemExit(f"{response.status_code} {error['error']}: {error['message']} (requestId {error['requestId']})")`,
];

/** Python's lines that save a result file with the same key, or print a JSON result. */
function pythonFetchResult(output: string, indent = ""): string[] {
  return [
    `if "file" in ${output}:`,
    "    # The result's URL is on the API and needs the same key.",
    `    download = requests.get(urljoin(url, ${output}["file"]), headers=headers)`,
    "    download.raise_for_status()",
    `    with open(${pyString(RESULT_FILE)}, "wb") as out:`,
    "        out.write(download.content)",
    `    print("saved ${RESULT_FILE}")`,
    "else:",
    `    print(${output}["body"])`,
  ].map((line) => indent + line);
}

function pythonSnippet(url: string, headers: Headers, parts: Part[]): string {
  return [
    ...pythonRequest(url, headers, parts),
    "response = requests.post(url, headers=headers, files=files)",
    ...PYTHON_FAIL_ON_ERROR,
    "result = response.json()",
    `print(f"request {result['request']['id']}: cost {result['cost']}, balance {result['balance']}")`,
    ...pythonFetchResult('result["request"]["response_data"]'),
  ].join("\n");
}

function jsKey(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : pyString(name);
}

/**
 * JavaScript (and TypeScript, `typed`) for Node 18+: no top-level `await` (everything runs in `main`),
 * so the same code runs as an ES module, as CommonJS and as a `.ts` file compiled to either.
 */
function javascriptRequest(url: string, headers: Headers, parts: Part[], asyncCall: boolean): string[] {
  return [
    `import { readFile, writeFile } from "node:fs/promises";`,
    "",
    `const url = ${pyString(url)};`,
    `const authorization = ${jsValue(headers[0]?.[1] ?? "")};`,
    "",
    "async function main() {",
    "  const form = new FormData();",
    ...parts.map((part) =>
      part.kind === "file"
        ? `  form.append(${pyString(part.name)}, new Blob([await readFile(${pyString(part.value)})]), ${pyString(part.value)});`
        : `  form.append(${pyString(part.name)}, ${pyString(part.value)});`,
    ),
    "",
    "  const response = await fetch(url, {",
    `    method: "POST",`,
    "    headers: {",
    "      Authorization: authorization,",
    ...headers.slice(1).map(([name, value]) => `      ${jsKey(name)}: ${jsValue(value)},`),
    ...(asyncCall ? [`      Prefer: "respond-async",`] : []),
    `      // ${pyString(IDEMPOTENCY_KEY_HEADER_NAME)}: ${pyString(IDEMPOTENCY_KEY_EXAMPLE)}, // ${IDEMPOTENCY_NOTE}`,
    "    },",
    "    body: form,",
    "  });",
  ];
}

function javascriptFetchResult(output: string): string[] {
  return [
    `  if (${output}.file) {`,
    "    // The result's URL is on the API and needs the same key.",
    `    const download = await fetch(new URL(${output}.file, url), { headers: { Authorization: authorization } });`,
    `    if (!download.ok) throw new Error("download failed: " + download.status);`,
    `    await writeFile(${pyString(RESULT_FILE)}, Buffer.from(await download.arrayBuffer()));`,
    `    console.log("saved ${RESULT_FILE}");`,
    "  } else {",
    `    console.log(${output}.body);`,
    "  }",
    "}",
    "",
    "main().catch((error) => {",
    "  console.error(error instanceof Error ? error.message : error);",
    "  process.exitCode = 1;",
    "});",
  ];
}

/** The TypeScript answer type: a call's answer, or its error body. */
const TYPESCRIPT_TYPES = [
  "type CallAnswer = {",
  "  balance: number;",
  "  cost: number;",
  "  request: { id: string; response_data: { file?: string; body?: unknown } };",
  "};",
  "type ErrorAnswer = { error: string; message: string; requestId: string };",
  "",
];

function javascriptSnippet(url: string, headers: Headers, parts: Part[], typed: boolean): string {
  const request = javascriptRequest(url, headers, parts, false);
  const lines = [
    ...request.slice(0, 2),
    ...(typed ? TYPESCRIPT_TYPES : []),
    ...request.slice(2),
    typed ? "  const answer: unknown = await response.json();" : "  const answer = await response.json();",
    "  if (!response.ok) {",
    `    const error = answer${typed ? " as ErrorAnswer" : ""};`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal
    "    throw new Error(`${response.status} ${error.error}: ${error.message} (requestId ${error.requestId})`);",
    "  }",
    `  const result = answer${typed ? " as CallAnswer" : ""};`,
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal
    "  console.log(`request ${result.request.id}: cost ${result.cost}, balance ${result.balance}`);",
    ...javascriptFetchResult("result.request.response_data"),
  ];
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
  const auth = authorization
    ? environmentKeyOf(authorization[1])
      ? ` -H "${authorization[0]}: ${authorization[1]}"`
      : ` -H ${quote(`${authorization[0]}: ${authorization[1]}`)}`
    : "";
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
  return [
    ...pythonRequest(url, [...headers, ["Prefer", "respond-async"]], parts, ["import time"]),
    "# Submitted without waiting: 202 Accepted with the call's id and where to follow it.",
    '# (Add a "webhook" field with an https URL to be told when it ends instead of asking.)',
    "response = requests.post(url, headers=headers, files=files)",
    ...PYTHON_FAIL_ON_ERROR,
    "call = response.json()",
    'while call["status"] in ("queued", "running"):',
    "    time.sleep(1)",
    '    call = requests.get(urljoin(url, call["urls"]["get"]), headers=headers).json()',
    'if call["status"] != "succeeded":',
    `    raise SystemExit(f"{call['status']}: {call['error']} {call['error_message']}")`,
    ...pythonFetchResult('call["response_data"]'),
  ].join("\n");
}

function javascriptAsyncSnippet(url: string, headers: Headers, parts: Part[]): string {
  return [
    ...javascriptRequest(url, headers, parts, true),
    "  // Submitted without waiting: 202 Accepted with the call's id and where to follow it.",
    "  let call = await response.json();",
    "  if (!response.ok) {",
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the generated code's own template literal
    "    throw new Error(`${response.status} ${call.error}: ${call.message} (requestId ${call.requestId})`);",
    "  }",
    `  while (call.status === "queued" || call.status === "running") {`,
    "    await new Promise((resolve) => setTimeout(resolve, 1000));",
    "    call = await (await fetch(new URL(call.urls.get, url), { headers: { Authorization: authorization } })).json();",
    "  }",
    `  if (call.status !== "succeeded") throw new Error(call.status + ": " + call.error + " " + call.error_message);`,
    ...javascriptFetchResult("call.response_data"),
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
