import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/**
 * A local model server for the journeys, speaking our `http` provider protocol (docs/model-server.md)
 * for the features the builtin CPU engine does not run: generation, Pegasus generation and training,
 * generative fill, reimagine and identity inpainting. It stands in for the remote GPU service, the one
 * kind of fake the standards allow; the gateway and console in front of it are the production code.
 *
 * Its results are cheap but honest images: generation draws a picture of exactly width × height,
 * fill and inpainting paint the masked area, reimagine recolours (inside the mask when one is sent).
 * Training answers as the protocol says, at once with `{identityId, status: "pending"}`; the identity
 * then reports `training` until TRAINING_MS have passed, and `ready` after.
 *
 * Control routes for the tests (not part of the protocol):
 * - `POST /__control/fail-next` `{"feature", "status", "message"}`: the next call of that feature
 *   answers `status` with `{"message"}`.
 * - `GET /__control/last/<feature>`: what the last call of that feature received (fields, files with
 *   their sizes, the identity header).
 * - `POST /__control/hold` `{"feature"}`: calls of that feature wait, unanswered, until
 *   `POST /__control/release` `{"feature"}` answers them all; `GET /__control/held/<feature>` counts them.
 */

export const MODEL_SERVER_FEATURES = [
  "image-generation",
  "pegasus-generation",
  "pegasus-training",
  "generative-fill",
  "reimagine",
  "identity-inpainting",
] as const;

export interface ReceivedFile {
  name: string;
  type: string;
  bytes: number;
  width?: number;
  height?: number;
  /** Share of pixels brighter than mid-grey (for masks), 0–1. */
  whiteShare?: number;
}

export interface ReceivedCall {
  fields: Record<string, string>;
  files: Record<string, ReceivedFile[]>;
  identityRequestId: string | null;
}

/** How long a training "runs" here: shorter than the gateway's first status poll, so one poll sees it ready. */
const TRAINING_MS = 2_000;

interface Failure {
  status: number;
  message: string;
}

async function readBody(request: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { "content-type": "application/json" });
  response.end(JSON.stringify(body));
}

function sendPng(response: ServerResponse, png: Buffer): void {
  response.writeHead(200, { "content-type": "image/png", "content-length": png.length });
  response.end(png);
}

function hashHue(text: string): number {
  let hash = 0;
  for (const character of text) hash = (hash * 31 + (character.codePointAt(0) ?? 0)) >>> 0;
  return hash % 360;
}

/** A picture of exactly width × height: a two-colour gradient with discs, coloured by the prompt. */
async function drawGeneration(prompt: string, width: number, height: number): Promise<Buffer> {
  const hue = hashHue(prompt);
  const discs = Array.from({ length: 6 }, (_, index) => {
    const x = ((index * 0.37 + hue / 360) % 1) * width;
    const y = ((index * 0.61 + 0.2) % 1) * height;
    const radius = Math.min(width, height) * (0.08 + (index % 3) * 0.05);
    return `<circle cx="${x.toFixed(1)}" cy="${y.toFixed(1)}" r="${radius.toFixed(1)}" fill="hsla(${(hue + index * 40) % 360},70%,60%,0.75)"/>`;
  }).join("");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">
  <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="hsl(${hue},55%,30%)"/><stop offset="1" stop-color="hsl(${(hue + 60) % 360},60%,70%)"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#g)"/>${discs}</svg>`;
  return sharp(Buffer.from(svg)).resize(width, height, { fit: "fill" }).png().toBuffer();
}

/** The image with `colour` laid over where the mask is white (the whole image without a mask). */
async function paintMasked(
  image: Buffer,
  mask: Buffer | undefined,
  colour: { r: number; g: number; b: number },
  strength: number,
): Promise<Buffer> {
  const { width = 0, height = 0 } = await sharp(image).metadata();
  const alpha = mask
    ? await sharp(mask)
        .resize(width, height, { fit: "fill" })
        .greyscale()
        .linear(strength, 0)
        .raw()
        .toBuffer()
    : Buffer.alloc(width * height, Math.round(255 * strength));
  const layer = await sharp({ create: { width, height, channels: 3, background: colour } })
    .joinChannel(alpha, { raw: { width, height, channels: 1 } })
    .png()
    .toBuffer();
  return sharp(image)
    .composite([{ input: layer }])
    .png()
    .toBuffer();
}

async function describeFile(file: File): Promise<ReceivedFile> {
  const buffer = Buffer.from(await file.arrayBuffer());
  const described: ReceivedFile = { name: file.name, type: file.type, bytes: buffer.length };
  try {
    const { data, info } = await sharp(buffer).greyscale().raw().toBuffer({ resolveWithObject: true });
    described.width = info.width;
    described.height = info.height;
    let white = 0;
    for (let index = 0; index < data.length; index += info.channels) if ((data[index] ?? 0) > 127) white += 1;
    described.whiteShare = white / (info.width * info.height);
  } catch {
    // Not an image: size and type are enough.
  }
  return described;
}

export interface ModelServer {
  url: string;
  close(): Promise<void>;
}

export async function startModelServer(): Promise<ModelServer> {
  const failures = new Map<string, Failure>();
  const lastCalls = new Map<string, ReceivedCall>();
  /** Each accepted training's identity and when it was submitted. */
  const identities = new Map<string, number>();
  /** Features whose calls wait for a release, with the calls waiting. */
  const holds = new Map<string, (() => void)[]>();

  const server = createServer((request, response) => {
    void handle(request, response).catch((error: unknown) => {
      sendJson(response, 500, { message: error instanceof Error ? error.message : "model server error" });
    });
  });

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const path = new URL(request.url ?? "/", "http://localhost").pathname;
    if (request.method === "GET" && path === "/health") return sendJson(response, 200, { ok: true });

    if (request.method === "POST" && path === "/__control/fail-next") {
      const body = JSON.parse((await readBody(request)).toString("utf8")) as Partial<Failure> & {
        feature: string;
      };
      failures.set(body.feature, {
        status: body.status ?? 500,
        message: body.message ?? "The model failed.",
      });
      return sendJson(response, 200, {});
    }
    if (request.method === "POST" && (path === "/__control/hold" || path === "/__control/release")) {
      const { feature } = JSON.parse((await readBody(request)).toString("utf8")) as { feature: string };
      if (path === "/__control/hold") holds.set(feature, holds.get(feature) ?? []);
      else {
        const waiting = holds.get(feature) ?? [];
        holds.delete(feature);
        for (const go of waiting) go();
      }
      return sendJson(response, 200, {});
    }
    const heldMatch = /^\/__control\/held\/([\w-]+)$/.exec(path);
    if (request.method === "GET" && heldMatch?.[1]) {
      return sendJson(response, 200, { held: holds.get(heldMatch[1])?.length ?? 0 });
    }
    const lastMatch = /^\/__control\/last\/([\w-]+)$/.exec(path);
    if (request.method === "GET" && lastMatch?.[1]) {
      const call = lastCalls.get(lastMatch[1]);
      return call ? sendJson(response, 200, call) : sendJson(response, 404, { message: "no call yet" });
    }

    const statusMatch = /^\/pegasus-training\/([^/]+)$/.exec(path);
    if (request.method === "GET" && statusMatch?.[1]) {
      const submittedAt = identities.get(decodeURIComponent(statusMatch[1]));
      if (submittedAt === undefined) return sendJson(response, 404, { message: "Unknown identity." });
      return sendJson(response, 200, {
        status: Date.now() - submittedAt >= TRAINING_MS ? "ready" : "training",
      });
    }

    const feature = path.slice(1);
    if (request.method !== "POST" || !(MODEL_SERVER_FEATURES as readonly string[]).includes(feature)) {
      return sendJson(response, 404, { message: "Not found." });
    }

    const raw = await readBody(request);
    const form = await new Request("http://localhost/", {
      method: "POST",
      headers: { "content-type": request.headers["content-type"] ?? "" },
      body: new Uint8Array(raw),
    }).formData();
    const fields: Record<string, string> = {};
    const files: Record<string, File[]> = {};
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else files[name] = [...(files[name] ?? []), value];
    }
    const identityHeader = request.headers["x-authorization-identity-request-id"];
    const received: ReceivedCall = {
      fields,
      files: {},
      identityRequestId: typeof identityHeader === "string" ? identityHeader : null,
    };
    for (const [name, list] of Object.entries(files)) {
      received.files[name] = await Promise.all(list.map(describeFile));
    }
    lastCalls.set(feature, received);
    const waiting = holds.get(feature);
    if (waiting) await new Promise<void>((go) => waiting.push(go));

    const failure = failures.get(feature);
    if (failure) {
      failures.delete(feature);
      return sendJson(response, failure.status, { message: failure.message });
    }

    const fileBuffer = async (name: string) => {
      const file = files[name]?.[0];
      return file ? Buffer.from(await file.arrayBuffer()) : undefined;
    };

    switch (feature) {
      case "image-generation":
      case "pegasus-generation": {
        const width = Number(fields.width ?? 1024);
        const height = Number(fields.height ?? 1024);
        const prompt = `${fields.prompt ?? ""}${fields.identity_id ?? ""}${fields.artistic ?? ""}`;
        return sendPng(response, await drawGeneration(prompt, width, height));
      }
      case "pegasus-training": {
        const count = files.images?.length ?? 0;
        if (count < 10 || count > 15) {
          return sendJson(response, 422, { message: "Training needs 10 to 15 photos." });
        }
        const identityId = `identity-${randomUUID()}`;
        identities.set(identityId, Date.now());
        return sendJson(response, 200, { identityId, status: "pending" });
      }
      case "generative-fill":
      case "identity-inpainting": {
        const image = await fileBuffer("image");
        if (!image) return sendJson(response, 422, { message: "An image is required." });
        const colour = feature === "generative-fill" ? { r: 40, g: 160, b: 90 } : { r: 200, g: 150, b: 120 };
        return sendPng(response, await paintMasked(image, await fileBuffer("mask"), colour, 0.85));
      }
      case "reimagine": {
        const image = await fileBuffer("image");
        if (!image) return sendJson(response, 422, { message: "An image is required." });
        const denoise = Number(fields.denoise ?? 0.7);
        return sendPng(
          response,
          await paintMasked(image, await fileBuffer("mask"), { r: 90, g: 60, b: 200 }, denoise * 0.6),
        );
      }
    }
    return sendJson(response, 404, { message: "Not found." });
  }

  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
