import {
  type BodyField,
  type Feature,
  type FeatureCallResponse,
  type FileInput,
  microsToUsd,
  type RequestDetail,
  requestCancelPath,
  requestDetailPath,
  trainingResultSchema,
  transcriptionResultSchema,
} from "@prism/contract";
import {
  API_KEY_VARIABLE,
  curlSnippet,
  generateSnippets,
  type SnippetInputs,
  type SnippetLanguage,
} from "@prism/contract/snippets";
import type { z } from "zod";
import type { JsonObject } from "./types";

export const EXAMPLE_TEXT: Record<string, string> = {
  prompt: "A lighthouse on a cliff at dusk, oil painting",
  negative_prompt: "blurry, text",
  description: "Ada",
  identity_id: "$IDENTITY_ID",
  language: "en",
};
/** Optional fields the examples set anyway, because leaving all of them out would not be a useful call. */
export const EXAMPLE_OPTIONAL_NUMBERS: Record<string, number> = { top: 256, bottom: 256 };

export const EXAMPLE_FILE_NAMES: Record<string, string> = {
  image: "photo.png",
  mask: "mask.png",
  source: "source.png",
  target: "target.png",
  audio: "speech.mp3",
};

export function exampleFiles(file: FileInput): string[] {
  if (file.maxCount > 1) {
    return Array.from(
      { length: file.minCount },
      (_, index) => `photo${String(index + 1).padStart(2, "0")}.jpg`,
    );
  }
  return [EXAMPLE_FILE_NAMES[file.name] ?? `${file.name}.png`];
}

/** The body fields an example call sends, with example values. */
export function exampleBody(feature: Feature): Record<string, string | number | boolean> {
  const body: Record<string, string | number | boolean> = {};
  const fields: readonly BodyField[] = feature.inputs.body;
  for (const field of fields) {
    if (field.required) {
      body[field.name] = EXAMPLE_TEXT[field.name] ?? field.default ?? field.min ?? "example";
    } else if (field.name in EXAMPLE_OPTIONAL_NUMBERS) {
      body[field.name] = EXAMPLE_OPTIONAL_NUMBERS[field.name]!;
    } else if (field.name in EXAMPLE_TEXT && field.name !== "identity_id") {
      body[field.name] = EXAMPLE_TEXT[field.name]!;
    }
  }
  return body;
}

/** The snippet generator's inputs for a reference example: required inputs plus a few meaningful optional ones. */
export function snippetInputsOf(feature: Feature, baseUrl: string): SnippetInputs {
  const body = exampleBody(feature);
  const headers: Record<string, string> = {};
  for (const header of feature.headers) {
    if (header.required || (header.requiredWith && header.requiredWith in body)) {
      headers[header.name] = "$IDENTITY_REQUEST_ID";
    }
  }
  const fileNames = Object.fromEntries(
    feature.inputs.files.filter((file) => file.required).map((file) => [file.name, exampleFiles(file)]),
  );
  return { origin: baseUrl, apiKey: API_KEY_VARIABLE, shellVariables: true, body, fileNames, headers };
}

/** The cURL call shown in the reference. */
export function curlExample(feature: Feature, baseUrl: string): string {
  return curlSnippet(feature, snippetInputsOf(feature, baseUrl));
}

/** Redocly's and Scalar's names of the snippet languages (`x-codeSamples[].lang`). */
const SAMPLE_LANGUAGES: Record<SnippetLanguage, string> = {
  curl: "Shell",
  python: "Python",
  javascript: "JavaScript",
  typescript: "TypeScript",
  "curl-async": "Shell",
  "python-async": "Python",
  "javascript-async": "JavaScript",
};

/**
 * `x-codeSamples`: the same generator as the console's "Show API Call" (`@prism/contract/snippets`),
 * synchronous and asynchronous, with the key read from `$PRISM_API_KEY` and the deployment's address.
 */
export function codeSamplesOf(feature: Feature, baseUrl: string): JsonObject[] {
  return generateSnippets(feature, snippetInputsOf(feature, baseUrl)).map((snippet) => ({
    lang: SAMPLE_LANGUAGES[snippet.language],
    label: snippet.label,
    source: snippet.code,
  }));
}

/** A call just queued (`Prefer: respond-async`): the 202 answer's body. */
export function exampleQueuedDetail(feature: Feature): RequestDetail {
  const request = exampleResponse(feature).request;
  return {
    ...request,
    response_data: {},
    status: "queued",
    cost: request.cost,
    endpoint: feature.endpoint,
    queue_position: 0,
    started_date: null,
    completed_date: null,
    reserved: request.cost,
    error: null,
    error_message: null,
    urls: { get: requestDetailPath(request.id), cancel: requestCancelPath(request.id) },
  };
}

export const EXAMPLE_IDS = {
  organization: "0d5b3c0e-6a43-4c1e-9d0b-2f3a9c1e7b10",
  project: "7c1e0f52-93a4-4b8e-a1d2-5e6f7a8b9c0d",
  request: "3f2a1b4c-5d6e-4f70-8a9b-0c1d2e3f4a5b",
};

export function exampleFileUrl(name: string): string {
  return `/v1/files/${EXAMPLE_IDS.organization}/${EXAMPLE_IDS.project}/${name}`;
}

/** Result bodies of the features that answer with JSON instead of an image. */
export const JSON_RESULTS: Record<string, { schema: z.ZodType; example: unknown }> = {
  "speech-to-text": {
    schema: transcriptionResultSchema,
    example: {
      language: "en",
      segments: [
        { start: 0, end: 2.4, text: "Hello and welcome." },
        { start: 2.4, end: 5.1, text: "Today we talk about lighthouses." },
      ],
    },
  },
  "pegasus-training": {
    schema: trainingResultSchema,
    example: { identityId: "a81f3e2c-7b64-4d09-9c15-6e2d0b7f4a38", status: "pending" },
  },
};

/** A 200 answer as the feature would give it. */
export function exampleResponse(feature: Feature): FeatureCallResponse {
  const files: Record<string, string[]> = {};
  for (const file of feature.inputs.files) {
    if (!file.required) continue;
    files[file.name] = exampleFiles(file).map((name, index) =>
      exampleFileUrl(
        `${EXAMPLE_IDS.request}-${file.name}${file.maxCount > 1 ? `-${index + 1}` : ""}.${name.split(".").pop()}`,
      ),
    );
  }
  const jsonResult = JSON_RESULTS[feature.id];
  return {
    balance: 94.98,
    cost: microsToUsd(feature.billing.defaultPriceMicros),
    request: {
      id: EXAMPLE_IDS.request,
      request_date: "2026-05-04T10:21:33.000Z",
      request_data: { files, body: exampleBody(feature) },
      response_data: jsonResult
        ? { body: jsonResult.example }
        : { file: exampleFileUrl(`${EXAMPLE_IDS.request}-result.png`) },
      status: "done",
      cost: microsToUsd(feature.billing.defaultPriceMicros),
    },
  };
}
