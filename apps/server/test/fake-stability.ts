import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import sharp from "sharp";
import { type LocalRequest, type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A local Stability AI, written from the v2beta Stable Image API reference
 * (https://platform.stability.ai/docs/api-reference): `Authorization: Bearer`, multipart bodies,
 * `Accept: image/*` answered with the image and `finish-reason`/`seed` headers, `{ name, errors }`
 * bodies for 400/403/413/422/429/500, and the asynchronous endpoints (upscale/creative) answering
 * `{ id }` with the result polled at `/v2beta/results/{id}` (202 `in-progress`, then the image).
 */

const ASYNC = new Set(["stable-image/upscale/creative"]);
const SIZES: Record<string, [number, number]> = {
  "1:1": [64, 64],
  "16:9": [96, 54],
  "9:16": [54, 96],
  "4:5": [64, 80],
};

export interface StabilityBehaviour {
  /** Async endpoints: how long until the result is ready (default 50 ms). */
  durationMs?: number;
  /** Answer with `finish-reason: CONTENT_FILTERED`. */
  filtered?: boolean;
  /** Fields whose absence answers 400 with Stability's `errors`. */
  required?: string[];
}

export interface FakeStability {
  url: string;
  key: string;
  server: LocalServer;
  log: string[];
  /** The fields of every call, by path. */
  calls: {
    path: string;
    fields: Record<string, string>;
    files: Record<string, { type: string; size: number }>;
  }[];
  behaviour: Map<string, StabilityBehaviour>;
  failNext(pattern: RegExp, status: number, count?: number): void;
  close(): Promise<void>;
}

export async function startFakeStability(key = "sk-stability-test-0123456789"): Promise<FakeStability> {
  const log: string[] = [];
  const calls: FakeStability["calls"] = [];
  const behaviour = new Map<string, StabilityBehaviour>();
  const failures: { pattern: RegExp; status: number; count: number }[] = [];
  const pending = new Map<string, { readyAt: number; image: Buffer }>();

  function error(response: ServerResponse, status: number, name: string, errors: string[]) {
    sendJson(response, status, { id: randomBytes(8).toString("hex"), name, errors });
  }

  async function imageFor(fields: Record<string, string>, files: Record<string, Blob>): Promise<Buffer> {
    let [width, height] = SIZES[fields.aspect_ratio ?? "1:1"] ?? [64, 64];
    const source = files.image;
    if (source) {
      const metadata = await sharp(Buffer.from(await source.arrayBuffer())).metadata();
      width = (metadata.width ?? 64) + Number(fields.left ?? 0) + Number(fields.right ?? 0);
      height = (metadata.height ?? 64) + Number(fields.up ?? 0) + Number(fields.down ?? 0);
    }
    return sharp({ create: { width, height, channels: 4, background: { r: 20, g: 160, b: 90, alpha: 1 } } })
      .png()
      .toBuffer();
  }

  function sendImage(response: ServerResponse, image: Buffer, filtered = false) {
    response.writeHead(200, {
      "content-type": "image/png",
      "finish-reason": filtered ? "CONTENT_FILTERED" : "SUCCESS",
      seed: "1234",
    });
    response.end(image);
  }

  async function handle(request: LocalRequest, response: ServerResponse): Promise<void> {
    const path = new URL(request.path, "http://fake").pathname;
    const route = `${request.method} ${path}`;
    const failure = failures.find((entry) => entry.count > 0 && entry.pattern.test(route));
    if (failure) {
      failure.count -= 1;
      log.push(`fail ${failure.status} ${route}`);
      return error(
        response,
        failure.status,
        failure.status === 429 ? "rate_limit_exceeded" : "server_error",
        ["Simulated failure"],
      );
    }
    if (request.headers.authorization !== `Bearer ${key}`) {
      return error(response, 401, "unauthorized", ["authorization: invalid or missing header value"]);
    }
    const result = /^\/v2beta\/results\/(\w+)$/.exec(path);
    if (request.method === "GET" && result) {
      const job = pending.get(result[1]!);
      if (!job) return error(response, 404, "not_found", ["generation id not found"]);
      log.push(`poll ${result[1]}`);
      if (Date.now() < job.readyAt) return sendJson(response, 202, { id: result[1], status: "in-progress" });
      return sendImage(response, job.image);
    }
    const endpoint = /^\/v2beta\/(stable-image\/[\w/-]+)$/.exec(path)?.[1];
    if (request.method !== "POST" || !endpoint)
      return error(response, 404, "not_found", [`No route for ${route}`]);
    const form = await new Request("http://fake/", {
      method: "POST",
      headers: { "content-type": String(request.headers["content-type"]) },
      body: new Uint8Array(request.raw),
    }).formData();
    const fields: Record<string, string> = {};
    const files: Record<string, Blob> = {};
    for (const [name, value] of form.entries()) {
      if (typeof value === "string") fields[name] = value;
      else files[name] = value;
    }
    calls.push({
      path: endpoint,
      fields,
      files: Object.fromEntries(
        Object.entries(files).map(([name, blob]) => [name, { type: blob.type, size: blob.size }]),
      ),
    });
    log.push(`call ${endpoint}`);
    const rules = behaviour.get(endpoint) ?? {};
    const missing = (rules.required ?? []).filter(
      (name) => fields[name] === undefined && files[name] === undefined,
    );
    if (missing.length > 0) {
      return error(
        response,
        400,
        "bad_request",
        missing.map((name) => `${name}: required`),
      );
    }
    const image = await imageFor(fields, files);
    if (ASYNC.has(endpoint)) {
      const id = randomBytes(32).toString("hex");
      pending.set(id, { readyAt: Date.now() + (rules.durationMs ?? 50), image });
      return sendJson(response, 200, { id });
    }
    if (request.headers.accept !== "image/*")
      return error(response, 400, "bad_request", ["accept: must be image/*"]);
    sendImage(response, image, rules.filtered === true);
  }

  const server = await startLocalServer((request, response) => handle(request, response));
  return {
    url: server.url,
    key,
    server,
    log,
    calls,
    behaviour,
    failNext(pattern, status, count = 1) {
      failures.push({ pattern, status, count });
    },
    close: () => server.close(),
  };
}
