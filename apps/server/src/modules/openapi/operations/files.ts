import { THUMBNAIL_MAX_SIDE, THUMBNAIL_SUFFIX } from "@prism/contract";
import { EXAMPLE_REQUEST_ID } from "../errors";
import { EXAMPLE_IDS, exampleFileUrl } from "../examples";
import { TAGS } from "../tags";
import { ERROR_SCHEMA_REF, type JsonObject, SECURITY_SCHEME } from "../types";

export const FILE_ROUTE = "/v1/files/{organizationId}/{projectId}/{name}";

/** What a stored file can be: images are re-encoded (PNG or JPEG, WebP thumbnails), audio is kept as sent. */
export const FILE_CONTENT_TYPES = [
  "image/png",
  "image/jpeg",
  "image/webp",
  "audio/mpeg",
  "audio/wav",
  "audio/ogg",
  "audio/flac",
] as const;

export function fileDownloadOperation(baseUrl: string): JsonObject {
  const example = exampleFileUrl(`${EXAMPLE_IDS.request}-result.png`);
  return {
    operationId: "downloadFile",
    summary: "Download a file",
    description: [
      "Every URL in an answer's `request` (the inputs under `request_data.files`, the result under",
      "`response_data.file`) points here. Send the same API key: a key reads the files of its own",
      "project, and any other file answers 404, as if it did not exist.",
      "",
      "The URLs are paths on this origin (`/v1/files/...`), or absolute URLs when the deployment has its",
      "public address configured. Images are PNG or JPEG; add `" +
        THUMBNAIL_SUFFIX +
        `\` to an image's URL for a WebP thumbnail of at most ${THUMBNAIL_MAX_SIDE} px. Audio inputs are returned as uploaded.`,
    ].join("\n"),
    tags: [TAGS.files.name],
    security: [{ [SECURITY_SCHEME]: [] }],
    parameters: [
      {
        name: "organizationId",
        in: "path",
        required: true,
        description: "The organization of the project, as in the URL from the answer.",
        schema: { type: "string", format: "uuid" },
      },
      {
        name: "projectId",
        in: "path",
        required: true,
        description: "The project the file belongs to; it must be the API key's project.",
        schema: { type: "string", format: "uuid" },
      },
      {
        name: "name",
        in: "path",
        required: true,
        description: `The file's random name, as in the URL from the answer (with \`${THUMBNAIL_SUFFIX}\` for a thumbnail).`,
        schema: { type: "string" },
      },
    ],
    responses: {
      "200": {
        description: "The file, with its content type.",
        content: Object.fromEntries(
          FILE_CONTENT_TYPES.map((type) => [type, { schema: { type: "string", format: "binary" } }]),
        ),
      },
      "404": {
        description:
          "No such file, no valid API key, or the file belongs to another project (a key reads only its own project's files). Codes: `not-found`.",
        content: {
          "application/json": {
            schema: { $ref: ERROR_SCHEMA_REF },
            example: { error: "not-found", message: "File not found.", requestId: EXAMPLE_REQUEST_ID },
          },
        },
      },
    },
    "x-codeSamples": [
      {
        lang: "cURL",
        label: "cURL",
        source: `curl "${baseUrl}${example}" \\\n  -H "Authorization: Bearer $PRISM_API_KEY" \\\n  -o result.png`,
      },
    ],
  };
}
