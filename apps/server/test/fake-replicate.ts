import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import sharp from "sharp";
import { type LocalRequest, type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A local Replicate, written from its HTTP API reference (https://replicate.com/docs/reference/http)
 * and from what the official `replicate` client sends (node_modules/replicate/lib/*.js): bearer
 * authentication, the Files API (multipart `content`), predictions by version (`POST /predictions`)
 * or by official model (`POST /models/{owner}/{name}/predictions`) with `Prefer: wait=n` holding the
 * answer until the prediction ends or n seconds pass, the statuses starting → processing → succeeded
 * | failed | canceled, cancel at `/predictions/{id}/cancel`, trainings that create a new version of
 * their destination, `GET /account`, `GET`/`POST /models`, 422 with Replicate's problem body for
 * invalid input, and output files on a delivery path that expire (Replicate deletes them after an
 * hour). Image results are real PNGs of the size the input asks for.
 */

type Status = "starting" | "processing" | "succeeded" | "failed" | "canceled";

interface Job {
  kind: "prediction" | "training";
  id: string;
  model: string;
  version: string | null;
  input: Record<string, unknown>;
  status: Status;
  output: unknown;
  error: string | null;
  createdAt: number;
  /** When it turns processing, and when it ends (ms since epoch). */
  startsAt: number;
  endsAt: number;
  destination?: string;
  settled: boolean;
}

export interface ModelBehaviour {
  /** How long a run takes (default 30 ms). */
  durationMs?: number;
  /** The run fails with this error. */
  failWith?: string;
  /** Input fields whose absence answers 422 at creation. */
  required?: string[];
  /** The prediction's output is this URL instead of a file the fake serves (a hostile answer). */
  outputUrl?: string;
  /** The output file's bytes and type instead of a PNG. */
  outputFile?: { data: Buffer; type: string };
}

export interface FakeReplicate {
  url: string;
  /** The API base the client is given (`<url>/v1`). */
  apiUrl: string;
  token: string;
  server: LocalServer;
  /** Every prediction and training, by id. */
  jobs: Map<string, Job>;
  /** What happened, in order: `create <id> <model>`, `cancel <id>`, `train <id>`, `upload <id>`... */
  log: string[];
  behaviour: Map<string, ModelBehaviour>;
  /** The next `count` requests whose `METHOD path` matches answer `status` (429, 500, 503...). */
  failNext(pattern: RegExp, status: number, count?: number, headers?: Record<string, string>): void;
  /** How long output files stay downloadable (default an hour). */
  outputTtlMs: number;
  close(): Promise<void>;
}

const SIZES: Record<string, [number, number]> = {
  "1:1": [64, 64],
  "16:9": [96, 54],
  "9:16": [54, 96],
  "4:5": [64, 80],
};

export interface FakeReplicateOptions {
  token?: string;
  /** The community models it knows, as `owner/name:version` (the model map's pinned versions). */
  catalogue?: readonly string[];
}

export async function startFakeReplicate(options: FakeReplicateOptions = {}): Promise<FakeReplicate> {
  const token = options.token ?? "r8_fake_token_for_tests";
  const versionModels = new Map(
    (options.catalogue ?? []).flatMap((entry) => {
      const [model, version] = entry.split(":");
      return model && version ? [[version, model] as const] : [];
    }),
  );
  const jobs = new Map<string, Job>();
  const files = new Map<string, { data: Buffer; type: string }>();
  const outputs = new Map<string, { data: Buffer; expiresAt: number; type: string }>();
  const models = new Set<string>();
  const log: string[] = [];
  const behaviour = new Map<string, ModelBehaviour>();
  const failures: { pattern: RegExp; status: number; count: number; headers: Record<string, string> }[] = [];
  let fake: FakeReplicate;

  const newId = () => randomBytes(12).toString("hex").slice(0, 24);

  function jobJson(job: Job) {
    const base = `${fake.url}/v1/${job.kind === "prediction" ? "predictions" : "trainings"}/${job.id}`;
    return {
      id: job.id,
      model: job.model,
      version: job.version,
      input: job.input,
      logs: "",
      output: job.status === "succeeded" ? job.output : null,
      error: job.error,
      status: job.status,
      source: "api",
      created_at: new Date(job.createdAt).toISOString(),
      ...(job.status === "succeeded"
        ? { metrics: { predict_time: (job.endsAt - job.startsAt) / 1000 } }
        : {}),
      urls: { get: base, cancel: `${base}/cancel`, web: `https://replicate.com/p/${job.id}` },
      ...(job.destination ? { destination: job.destination } : {}),
    };
  }

  async function fileBytes(value: unknown): Promise<Buffer | undefined> {
    if (typeof value !== "string") return undefined;
    const match = /\/v1\/files\/([\w-]+)/.exec(value);
    return match ? files.get(match[1]!)?.data : undefined;
  }

  /** A PNG of the size the input implies: the input image's (times `scale`), else the aspect ratio's. */
  async function imageFor(job: Job): Promise<Buffer> {
    const source =
      (await fileBytes(job.input.image)) ??
      (await fileBytes(job.input.input_image)) ??
      (await fileBytes(job.input.swap_image));
    let width = 64;
    let height = 64;
    if (source) {
      const metadata = await sharp(source).metadata();
      const scale = Number(job.input.scale ?? 1);
      width = (metadata.width ?? 64) * scale;
      height = (metadata.height ?? 64) * scale;
    } else if (typeof job.input.aspect_ratio === "string" && SIZES[job.input.aspect_ratio]) {
      [width, height] = SIZES[job.input.aspect_ratio]!;
    }
    return sharp({ create: { width, height, channels: 3, background: { r: 40, g: 120, b: 200 } } })
      .png()
      .toBuffer();
  }

  /** Moves a job along its statuses by the clock; called on every read, so time alone drives it. */
  async function advance(job: Job): Promise<void> {
    if (job.settled) return;
    const now = Date.now();
    if (job.status === "starting" && now >= job.startsAt) job.status = "processing";
    if (job.status !== "processing" || now < job.endsAt) return;
    job.settled = true;
    const rules = behaviour.get(job.model) ?? behaviour.get(job.version ?? "") ?? {};
    if (rules.failWith) {
      job.status = "failed";
      job.error = rules.failWith;
      return;
    }
    if (job.kind === "training") {
      const version = `${job.destination}:${randomBytes(32).toString("hex")}`;
      versionModels.set(version.split(":")[1]!, `${job.destination}`);
      job.output = { version, weights: `${fake.url}/delivery/${job.id}/trained_model.tar` };
    } else if (/whisper/.test(job.model)) {
      job.output = {
        segments: [
          { id: 0, start: 0, end: 1.5, text: " Hello from the fake Replicate." },
          { id: 1, start: 1.5, end: 2.5, text: " Second segment." },
        ],
        transcription: "Hello from the fake Replicate. Second segment.",
        detected_language: "english",
      };
    } else if (rules.outputUrl) {
      job.output = rules.outputUrl;
    } else {
      const key = `${job.id}/out-0.png`;
      const file = rules.outputFile ?? { data: await imageFor(job), type: "image/png" };
      outputs.set(key, { ...file, expiresAt: now + fake.outputTtlMs });
      const url = `${fake.url}/delivery/${key}`;
      job.output = job.model.startsWith("black-forest-labs/flux-dev") ? [url] : url;
    }
    job.status = "succeeded";
  }

  function createJob(
    kind: Job["kind"],
    model: string,
    version: string | null,
    input: Record<string, unknown>,
    destination?: string,
  ): Job {
    const rules = behaviour.get(model) ?? behaviour.get(version ?? "") ?? {};
    const now = Date.now();
    const duration = rules.durationMs ?? 30;
    const job: Job = {
      kind,
      id: newId(),
      model,
      version,
      input,
      status: "starting",
      output: null,
      error: null,
      createdAt: now,
      startsAt: now + Math.min(10, duration / 3),
      endsAt: now + duration,
      settled: false,
      ...(destination ? { destination } : {}),
    };
    jobs.set(job.id, job);
    log.push(`${kind === "prediction" ? "create" : "train"} ${job.id} ${model}`);
    return job;
  }

  function problem(response: ServerResponse, status: number, title: string, detail: string) {
    response.writeHead(status, { "content-type": "application/problem+json" });
    response.end(JSON.stringify({ title, detail, status }));
  }

  async function waitFor(job: Job, seconds: number): Promise<void> {
    const until = Date.now() + seconds * 1000;
    while (Date.now() < until) {
      await advance(job);
      if (job.settled) return;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  function missingRequired(model: string, version: string | null, input: Record<string, unknown>) {
    const rules = behaviour.get(model) ?? behaviour.get(version ?? "") ?? {};
    return (rules.required ?? []).filter((field) => input[field] === undefined || input[field] === "");
  }

  async function handle(request: LocalRequest, response: ServerResponse): Promise<void> {
    const url = new URL(request.path, fake.url);
    const path = url.pathname;
    const route = `${request.method} ${path}`;
    const failure = failures.find((entry) => entry.count > 0 && entry.pattern.test(route));
    if (failure) {
      failure.count -= 1;
      log.push(`fail ${failure.status} ${route}`);
      response.writeHead(failure.status, { "content-type": "application/json", ...failure.headers });
      response.end(JSON.stringify({ detail: "Simulated failure", status: failure.status }));
      return;
    }
    if (path.startsWith("/delivery/")) {
      const output = outputs.get(path.slice("/delivery/".length));
      if (!output || Date.now() > output.expiresAt) {
        response.writeHead(404, { "content-type": "text/plain" });
        response.end("Not found");
        return;
      }
      response.writeHead(200, { "content-type": output.type, "content-length": output.data.length });
      response.end(output.data);
      return;
    }
    if (request.headers.authorization !== `Bearer ${token}`) {
      problem(response, 401, "Unauthenticated", "You did not pass a valid authentication token");
      return;
    }
    if (route === "GET /v1/account") {
      sendJson(response, 200, { type: "user", username: "prism-test", name: "Prism Test" });
      return;
    }
    if (route === "POST /v1/files") {
      const form = await new Request("http://fake/", {
        method: "POST",
        headers: { "content-type": String(request.headers["content-type"]) },
        body: new Uint8Array(request.raw),
      }).formData();
      const content = form.get("content");
      if (!(content instanceof Blob)) {
        problem(response, 400, "Bad request", "The content field is required.");
        return;
      }
      const id = newId();
      files.set(id, { data: Buffer.from(await content.arrayBuffer()), type: content.type });
      log.push(`upload ${id} ${content.size}`);
      sendJson(response, 201, {
        id,
        name: content instanceof File ? content.name : id,
        content_type: content.type,
        size: content.size,
        urls: { get: `${fake.url}/v1/files/${id}` },
      });
      return;
    }
    if (request.method === "GET" && /^\/v1\/files\/[\w-]+$/.test(path)) {
      const file = files.get(path.split("/").pop()!);
      if (!file) return problem(response, 404, "Not found", "No such file.");
      response.writeHead(200, { "content-type": file.type });
      response.end(file.data);
      return;
    }
    const modelPath = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)$/.exec(path);
    if (request.method === "GET" && modelPath) {
      const name = `${modelPath[1]}/${modelPath[2]}`;
      if (!models.has(name))
        return problem(response, 404, "Not found", "The requested resource could not be found.");
      sendJson(response, 200, { owner: modelPath[1], name: modelPath[2], visibility: "private" });
      return;
    }
    if (route === "POST /v1/models") {
      const body = JSON.parse(request.body) as {
        owner: string;
        name: string;
        visibility?: string;
        hardware?: string;
      };
      if (!body.visibility || !body.hardware) {
        return problem(response, 422, "Invalid input", "visibility and hardware are required.");
      }
      models.add(`${body.owner}/${body.name}`);
      log.push(`model ${body.owner}/${body.name}`);
      sendJson(response, 201, { owner: body.owner, name: body.name, visibility: body.visibility });
      return;
    }
    const officialModel = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/predictions$/.exec(path);
    if (request.method === "POST" && (path === "/v1/predictions" || officialModel)) {
      let body: { version?: string; input?: Record<string, unknown> };
      try {
        body = JSON.parse(request.body);
      } catch {
        return problem(response, 400, "Bad request", "The body is not JSON.");
      }
      if (!body.input || typeof body.input !== "object") {
        return problem(response, 422, "Input validation failed", "- input: input is required");
      }
      const model = officialModel ? `${officialModel[1]}/${officialModel[2]}` : "";
      const version = officialModel ? null : (body.version ?? null);
      if (!officialModel && !version) {
        return problem(response, 422, "Input validation failed", "- version: version is required");
      }
      const missing = missingRequired(model, version, body.input);
      if (missing.length > 0) {
        return problem(
          response,
          422,
          "Input validation failed",
          missing.map((field) => `- input.${field}: ${field} is required`).join("\n"),
        );
      }
      const known = model || versionModels.get(version ?? "");
      if (!known) {
        return problem(
          response,
          422,
          "Invalid version or not permitted",
          "The specified version does not exist (or perhaps you don't have permission to use it?)",
        );
      }
      const job = createJob("prediction", known, version, body.input);
      const prefer = String(request.headers.prefer ?? "");
      const waitMatch = /^wait(?:=(\d+))?$/.exec(prefer);
      if (waitMatch) await waitFor(job, Number(waitMatch[1] ?? 60));
      else await advance(job);
      sendJson(response, 201, jobJson(job));
      return;
    }
    const one = /^\/v1\/(predictions|trainings)\/([\w-]+)(\/cancel)?$/.exec(path);
    if (one) {
      const job = jobs.get(one[2]!);
      if (!job) return problem(response, 404, "Not found", "The requested resource could not be found.");
      if (one[3] && request.method === "POST") {
        log.push(`cancel ${job.id}`);
        await advance(job);
        if (!job.settled) {
          job.settled = true;
          job.status = "canceled";
        }
        sendJson(response, 200, jobJson(job));
        return;
      }
      if (request.method === "GET") {
        log.push(`get ${job.id}`);
        await advance(job);
        sendJson(response, 200, jobJson(job));
        return;
      }
    }
    const trainer = /^\/v1\/models\/([\w.-]+)\/([\w.-]+)\/versions\/(\w+)\/trainings$/.exec(path);
    if (request.method === "POST" && trainer) {
      const body = JSON.parse(request.body) as { destination?: string; input?: Record<string, unknown> };
      if (!body.destination || !models.has(body.destination)) {
        return problem(response, 404, "Not found", "The destination model does not exist.");
      }
      if (!body.input || typeof body.input.input_images !== "string") {
        return problem(
          response,
          422,
          "Input validation failed",
          "- input.input_images: input_images is required",
        );
      }
      const job = createJob(
        "training",
        `${trainer[1]}/${trainer[2]}`,
        trainer[3]!,
        body.input,
        body.destination,
      );
      sendJson(response, 201, jobJson(job));
      return;
    }
    problem(response, 404, "Not found", `No route for ${route}.`);
  }

  const server = await startLocalServer((request, response) => handle(request, response));
  fake = {
    url: server.url,
    apiUrl: `${server.url}/v1`,
    token,
    server,
    jobs,
    log,
    behaviour,
    outputTtlMs: 3_600_000,
    failNext(pattern, status, count = 1, headers = {}) {
      failures.push({ pattern, status, count, headers });
    },
    close: () => server.close(),
  };
  return fake;
}
