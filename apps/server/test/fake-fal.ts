import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import sharp from "sharp";
import { type LocalRequest, type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A local fal, written from fal's queue API documentation (https://docs.fal.ai/model-endpoints/queue)
 * and from what `@fal-ai/client` sends (node_modules/@fal-ai/client/src/queue.js, storage.js,
 * request.js): `Authorization: Key <key>`, storage uploads (`POST /storage/upload/initiate` answering
 * an upload URL and the file's URL, then `PUT` of the bytes), `POST /{endpoint}` answering a request id
 * with its queue position, `GET /{owner}/{alias}/requests/{id}/status` (IN_QUEUE with queue_position,
 * IN_PROGRESS, COMPLETED with metrics.inference_time), `GET /{owner}/{alias}/requests/{id}` for the
 * result, `PUT .../cancel` (202 CANCELLATION_REQUESTED, or 400 ALREADY_COMPLETED), and 422 bodies in
 * the FastAPI shape the client's ValidationError reads. It stands for both of fal's hosts (the client
 * is pointed here by FAL_BASE_URL) and serves results itself, as fal's CDN would.
 */

interface Request {
  id: string;
  endpoint: string;
  input: Record<string, unknown>;
  createdAt: number;
  startsAt: number;
  endsAt: number;
  status: "IN_QUEUE" | "IN_PROGRESS" | "COMPLETED";
  cancelled: boolean;
  result?: unknown;
  error?: { status: number; body: unknown };
}

export interface FalBehaviour {
  durationMs?: number;
  /** The run completes with this error (a 500 from the result endpoint, as fal answers it). */
  failWith?: string;
  /** Input fields whose absence answers 422 at submission. */
  required?: string[];
}

export interface FakeFal {
  url: string;
  key: string;
  server: LocalServer;
  requests: Map<string, Request>;
  /** `submit <id> <endpoint>`, `status <id> <state>`, `cancel <id>`, `upload <name>`... */
  log: string[];
  behaviour: Map<string, FalBehaviour>;
  failNext(pattern: RegExp, status: number, count?: number): void;
  close(): Promise<void>;
}

/** Endpoints whose result is one `image` rather than a list of `images`. */
const SINGLE_IMAGE = /bria|birefnet|esrgan|face-swap/;

export async function startFakeFal(key = "fal-test-key-0123456789"): Promise<FakeFal> {
  const requests = new Map<string, Request>();
  const files = new Map<string, { data: Buffer; type: string }>();
  const log: string[] = [];
  const behaviour = new Map<string, FalBehaviour>();
  const failures: { pattern: RegExp; status: number; count: number }[] = [];
  let fake: FakeFal;

  const fileUrl = (id: string) => `${fake.url}/files/${id}`;

  function bytesOf(url: unknown): Buffer | undefined {
    if (typeof url !== "string") return undefined;
    const match = /\/files\/([\w.-]+)$/.exec(url);
    return match ? files.get(match[1]!)?.data : undefined;
  }

  async function makeImage(request: Request): Promise<{ url: string; width: number; height: number }> {
    const input = request.input;
    let width = 64;
    let height = 64;
    const source = bytesOf(input.image_url) ?? bytesOf(input.base_image_url);
    if (Array.isArray(input.canvas_size)) {
      [width, height] = input.canvas_size.map(Number) as [number, number];
    } else if (source) {
      const metadata = await sharp(source).metadata();
      const scale = Number(input.scale ?? 1);
      width = (metadata.width ?? 64) * scale;
      height = (metadata.height ?? 64) * scale;
    } else if (input.image_size && typeof input.image_size === "object") {
      const size = input.image_size as { width: number; height: number };
      width = Math.round(size.width / 16);
      height = Math.round(size.height / 16);
    }
    const data = await sharp({ create: { width, height, channels: 3, background: { r: 200, g: 90, b: 30 } } })
      .png()
      .toBuffer();
    const id = `${randomBytes(8).toString("hex")}.png`;
    files.set(id, { data, type: "image/png" });
    return { url: fileUrl(id), width, height };
  }

  async function complete(request: Request): Promise<void> {
    const rules = behaviour.get(request.endpoint) ?? {};
    if (rules.failWith) {
      request.error = { status: 500, body: { detail: rules.failWith } };
      return;
    }
    if (/whisper/.test(request.endpoint)) {
      request.result = {
        text: "Hello from the fake fal.",
        chunks: [{ timestamp: [0, 1.25], text: " Hello from the fake fal." }],
        inferred_languages: ["en"],
      };
    } else if (/training/.test(request.endpoint)) {
      const id = `${randomBytes(8).toString("hex")}.safetensors`;
      files.set(id, { data: Buffer.from("weights"), type: "application/octet-stream" });
      request.result = {
        diffusers_lora_file: { url: fileUrl(id), file_name: "pytorch_lora_weights.safetensors" },
        config_file: { url: fileUrl(id) },
      };
    } else {
      const image = await makeImage(request);
      const described = { ...image, content_type: "image/png" };
      request.result = SINGLE_IMAGE.test(request.endpoint)
        ? { image: described }
        : { images: [described], seed: 42 };
    }
  }

  async function advance(request: Request): Promise<void> {
    if (request.status === "COMPLETED") return;
    const now = Date.now();
    if (request.status === "IN_QUEUE" && now >= request.startsAt) request.status = "IN_PROGRESS";
    if (request.status === "IN_PROGRESS" && now >= request.endsAt) {
      await complete(request);
      request.status = "COMPLETED";
    }
  }

  function urlsOf(request: Request) {
    const [owner, alias] = request.endpoint.split("/");
    const base = `${fake.url}/${owner}/${alias}/requests/${request.id}`;
    return {
      request_id: request.id,
      response_url: base,
      status_url: `${base}/status`,
      cancel_url: `${base}/cancel`,
    };
  }

  function queuePosition(request: Request): number {
    return [...requests.values()].filter(
      (other) => other.status === "IN_QUEUE" && other.createdAt < request.createdAt,
    ).length;
  }

  async function handle(request: LocalRequest, response: ServerResponse): Promise<void> {
    const url = new URL(request.path, fake.url);
    const path = url.pathname;
    const route = `${request.method} ${path}`;
    const failure = failures.find((entry) => entry.count > 0 && entry.pattern.test(route));
    if (failure) {
      failure.count -= 1;
      log.push(`fail ${failure.status} ${route}`);
      return sendJson(response, failure.status, { detail: "Simulated failure" });
    }
    if (request.method === "GET" && path.startsWith("/files/")) {
      const file = files.get(path.slice("/files/".length));
      if (!file) return sendJson(response, 404, { detail: "Not Found" });
      response.writeHead(200, { "content-type": file.type });
      response.end(file.data);
      return;
    }
    if (request.method === "PUT" && path.startsWith("/upload/")) {
      const id = path.slice("/upload/".length);
      files.set(id, { data: request.raw, type: String(request.headers["content-type"] ?? "") });
      log.push(`upload ${id}`);
      response.writeHead(200);
      response.end();
      return;
    }
    if (request.headers.authorization !== `Key ${key}`) {
      return sendJson(response, 401, { detail: "Unauthorized" });
    }
    if (route === "POST /storage/upload/initiate") {
      const body = JSON.parse(request.body) as { content_type: string; file_name: string };
      const id = `${randomBytes(8).toString("hex")}-${body.file_name}`;
      return sendJson(response, 200, { upload_url: `${fake.url}/upload/${id}`, file_url: fileUrl(id) });
    }
    const one = /^\/([\w.-]+)\/([\w.-]+)\/requests\/([\w-]+)(\/status|\/cancel)?$/.exec(path);
    if (one) {
      const queued = requests.get(one[3]!);
      if (!queued) return sendJson(response, 404, { detail: "Request not found" });
      await advance(queued);
      if (one[4] === "/cancel" && request.method === "PUT") {
        log.push(`cancel ${queued.id}`);
        if (queued.status === "COMPLETED") return sendJson(response, 400, { status: "ALREADY_COMPLETED" });
        queued.cancelled = true;
        queued.status = "COMPLETED";
        queued.error = { status: 400, body: { detail: "Request was cancelled" } };
        return sendJson(response, 202, { status: "CANCELLATION_REQUESTED" });
      }
      if (one[4] === "/status" && request.method === "GET") {
        log.push(`status ${queued.id} ${queued.status}`);
        return sendJson(response, queued.status === "COMPLETED" ? 200 : 202, {
          ...urlsOf(queued),
          status: queued.status,
          ...(queued.status === "IN_QUEUE" ? { queue_position: queuePosition(queued) } : {}),
          logs: [],
          ...(queued.status === "COMPLETED"
            ? { metrics: { inference_time: (queued.endsAt - queued.startsAt) / 1000 } }
            : {}),
        });
      }
      if (!one[4] && request.method === "GET") {
        if (queued.status !== "COMPLETED")
          return sendJson(response, 400, { detail: "Request is still in progress" });
        if (queued.error) return sendJson(response, queued.error.status, queued.error.body);
        return sendJson(response, 200, queued.result);
      }
    }
    if (request.method === "POST") {
      const endpoint = path.slice(1);
      let input: Record<string, unknown>;
      try {
        input = JSON.parse(request.body || "{}");
      } catch {
        return sendJson(response, 400, { detail: "Invalid JSON" });
      }
      const rules = behaviour.get(endpoint) ?? {};
      const missing = (rules.required ?? []).filter((field) => input[field] === undefined);
      if (missing.length > 0) {
        return sendJson(response, 422, {
          detail: missing.map((field) => ({
            loc: ["body", field],
            msg: `field required: ${field}`,
            type: "value_error.missing",
          })),
        });
      }
      const now = Date.now();
      const duration = rules.durationMs ?? 30;
      const queued: Request = {
        id: randomBytes(16).toString("hex"),
        endpoint,
        input,
        createdAt: now,
        startsAt: now + Math.min(10, duration / 3),
        endsAt: now + duration,
        status: "IN_QUEUE",
        cancelled: false,
      };
      requests.set(queued.id, queued);
      log.push(`submit ${queued.id} ${endpoint}`);
      return sendJson(response, 200, {
        ...urlsOf(queued),
        status: "IN_QUEUE",
        queue_position: queuePosition(queued),
      });
    }
    sendJson(response, 404, { detail: `No route for ${route}` });
  }

  const server = await startLocalServer((request, response) => handle(request, response));
  fake = {
    url: server.url,
    key,
    server,
    requests,
    log,
    behaviour,
    failNext(pattern, status, count = 1) {
      failures.push({ pattern, status, count });
    },
    close: () => server.close(),
  };
  return fake;
}
