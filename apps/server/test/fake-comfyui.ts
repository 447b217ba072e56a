import { randomBytes } from "node:crypto";
import type { ServerResponse } from "node:http";
import sharp from "sharp";
import { SDXL_CHECKPOINT, UPSCALE_MODEL } from "../src/providers/inference/comfyui-workflows";
import { type LocalRequest, type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A local ComfyUI, written from its server's routes (ComfyUI's server.py): `GET /object_info` with the
 * core nodes' input specifications (model lists included), `POST /upload/image` (multipart `image`,
 * `subfolder`, `type`), `POST /prompt` taking our `prompt_id` and validating class types (400
 * `invalid_prompt` otherwise), one prompt executed at a time from its queue, `GET /queue`,
 * `POST /queue` with `delete`, `POST /interrupt`, `GET /history/{prompt_id}` (empty until done, then
 * outputs and status) and `GET /view` for the images.
 */

type Workflow = Record<string, { class_type: string; inputs: Record<string, unknown> }>;

interface Prompt {
  id: string;
  number: number;
  workflow: Workflow;
  state: "pending" | "running" | "done" | "error" | "deleted";
  startedAt?: number;
  error?: string;
}

export interface FakeComfy {
  url: string;
  server: LocalServer;
  prompts: Map<string, Prompt>;
  /** `upload <name>`, `prompt <id>`, `delete <id>`, `interrupt <id>`. */
  log: string[];
  /** How long each prompt runs (default 40 ms). */
  durationMs: number;
  /** Node classes and checkpoint files this instance has; tests remove some. */
  nodes: Set<string>;
  checkpoints: string[];
  /** The next prompt fails in execution with this message. */
  failNextWith?: string;
  close(): Promise<void>;
}

const CORE_NODES = [
  "CheckpointLoaderSimple",
  "CLIPTextEncode",
  "KSampler",
  "EmptyLatentImage",
  "VAEDecode",
  "VAEEncode",
  "VAEEncodeForInpaint",
  "SaveImage",
  "LoadImage",
  "ImageToMask",
  "UpscaleModelLoader",
  "ImageUpscaleWithModel",
];

export async function startFakeComfy(): Promise<FakeComfy> {
  const prompts = new Map<string, Prompt>();
  const files = new Map<string, Buffer>();
  const log: string[] = [];
  let counter = 0;
  let fake: FakeComfy;

  function objectInfo() {
    const info: Record<string, unknown> = {};
    for (const node of fake.nodes) {
      const required: Record<string, unknown> = {};
      if (node === "CheckpointLoaderSimple") required.ckpt_name = [fake.checkpoints];
      if (node === "UpscaleModelLoader") required.model_name = [[UPSCALE_MODEL]];
      if (node === "KSampler") {
        required.sampler_name = [["euler", "euler_ancestral", "dpmpp_2m"]];
        required.scheduler = [["normal", "karras"]];
        required.seed = ["INT", { min: 0, max: 2 ** 64 - 1 }];
      }
      if (node === "ImageToMask") required.channel = [["red", "green", "blue", "alpha"]];
      if (node === "LoadImage") required.image = [[...files.keys()], { image_upload: true }];
      info[node] = { input: { required }, output: [], name: node };
    }
    return info;
  }

  /** Runs the queue: the oldest pending prompt starts when none runs, and ends after durationMs. */
  async function tick(): Promise<void> {
    const now = Date.now();
    for (const prompt of prompts.values()) {
      if (prompt.state === "running" && now - (prompt.startedAt ?? now) >= fake.durationMs) {
        if (fake.failNextWith) {
          prompt.state = "error";
          prompt.error = fake.failNextWith;
          fake.failNextWith = undefined;
        } else {
          await render(prompt);
          prompt.state = "done";
        }
      }
    }
    if (![...prompts.values()].some((prompt) => prompt.state === "running")) {
      const next = [...prompts.values()]
        .filter((prompt) => prompt.state === "pending")
        .sort((a, b) => a.number - b.number)[0];
      if (next) {
        next.state = "running";
        next.startedAt = Date.now();
      }
    }
  }

  async function render(prompt: Prompt): Promise<void> {
    let width = 64;
    let height = 64;
    const nodes = Object.values(prompt.workflow);
    const load = nodes.find((node) => node.class_type === "LoadImage");
    const latent = nodes.find((node) => node.class_type === "EmptyLatentImage");
    if (load) {
      const source = files.get(String(load.inputs.image));
      if (source) ({ width = 64, height = 64 } = await sharp(source).metadata());
      if (nodes.some((node) => node.class_type === "ImageUpscaleWithModel")) {
        width *= 2;
        height *= 2;
      }
    } else if (latent) {
      width = Math.round(Number(latent.inputs.width) / 16);
      height = Math.round(Number(latent.inputs.height) / 16);
    }
    const image = await sharp({
      create: { width, height, channels: 3, background: { r: 120, g: 60, b: 160 } },
    })
      .png()
      .toBuffer();
    files.set(`output/prism_${prompt.id}.png`, image);
  }

  async function handle(request: LocalRequest, response: ServerResponse): Promise<void> {
    await tick();
    const url = new URL(request.path, fake.url);
    const route = `${request.method} ${url.pathname}`;
    if (route === "GET /object_info") return sendJson(response, 200, objectInfo());
    if (route === "POST /upload/image") {
      const form = await new Request("http://fake/", {
        method: "POST",
        headers: { "content-type": String(request.headers["content-type"]) },
        body: new Uint8Array(request.raw),
      }).formData();
      const image = form.get("image");
      if (!(image instanceof File)) return sendJson(response, 400, { error: "no image" });
      const subfolder = String(form.get("subfolder") ?? "");
      files.set(
        subfolder ? `${subfolder}/${image.name}` : image.name,
        Buffer.from(await image.arrayBuffer()),
      );
      log.push(`upload ${image.name}`);
      return sendJson(response, 200, { name: image.name, subfolder, type: "input" });
    }
    if (route === "POST /prompt") {
      const body = JSON.parse(request.body) as { prompt: Workflow; prompt_id?: string };
      const unknown = Object.entries(body.prompt).filter(([, node]) => !fake.nodes.has(node.class_type));
      if (unknown.length > 0) {
        return sendJson(response, 400, {
          error: {
            type: "invalid_prompt",
            message: `Cannot execute because node ${unknown[0]![1].class_type} does not exist.`,
          },
          node_errors: {},
        });
      }
      const id = body.prompt_id ?? randomBytes(16).toString("hex");
      counter += 1;
      prompts.set(id, { id, number: counter, workflow: body.prompt, state: "pending" });
      log.push(`prompt ${id}`);
      await tick();
      return sendJson(response, 200, { prompt_id: id, number: counter, node_errors: {} });
    }
    if (route === "GET /queue") {
      const row = (prompt: Prompt) => [prompt.number, prompt.id, prompt.workflow, {}, ["9"]];
      const list = [...prompts.values()];
      return sendJson(response, 200, {
        queue_running: list.filter((prompt) => prompt.state === "running").map(row),
        queue_pending: list.filter((prompt) => prompt.state === "pending").map(row),
      });
    }
    if (route === "POST /queue") {
      const body = JSON.parse(request.body || "{}") as { delete?: string[] };
      for (const id of body.delete ?? []) {
        const prompt = prompts.get(id);
        log.push(`delete ${id}`);
        if (prompt?.state === "pending") prompt.state = "deleted";
      }
      response.writeHead(200);
      response.end();
      return;
    }
    if (route === "POST /interrupt") {
      const body = JSON.parse(request.body || "{}") as { prompt_id?: string };
      const running = [...prompts.values()].find((prompt) => prompt.state === "running");
      if (running && (!body.prompt_id || body.prompt_id === running.id)) {
        running.state = "error";
        running.error = "interrupted";
        log.push(`interrupt ${running.id}`);
      }
      response.writeHead(200);
      response.end();
      return;
    }
    const history = /^\/history\/([\w-]+)$/.exec(url.pathname);
    if (request.method === "GET" && history) {
      const prompt = prompts.get(history[1]!);
      if (!prompt || (prompt.state !== "done" && prompt.state !== "error"))
        return sendJson(response, 200, {});
      return sendJson(response, 200, {
        [prompt.id]: {
          prompt: [prompt.number, prompt.id, prompt.workflow, {}, ["9"]],
          outputs:
            prompt.state === "done"
              ? { "9": { images: [{ filename: `prism_${prompt.id}.png`, subfolder: "", type: "output" }] } }
              : {},
          status: {
            status_str: prompt.state === "done" ? "success" : "error",
            completed: prompt.state === "done",
            messages:
              prompt.state === "error"
                ? [["execution_error", { prompt_id: prompt.id, exception_message: prompt.error }]]
                : [["execution_success", { prompt_id: prompt.id }]],
          },
        },
      });
    }
    if (route === "GET /view") {
      const key = `${url.searchParams.get("type")}/${url.searchParams.get("filename")}`;
      const image = files.get(key);
      if (!image) return sendJson(response, 404, { error: "not found" });
      response.writeHead(200, { "content-type": "image/png" });
      response.end(image);
      return;
    }
    sendJson(response, 404, { error: `No route for ${route}` });
  }

  const server = await startLocalServer((request, response) => handle(request, response));
  fake = {
    url: server.url,
    server,
    prompts,
    log,
    durationMs: 40,
    nodes: new Set(CORE_NODES),
    checkpoints: [SDXL_CHECKPOINT, "v1-5-pruned-emaonly.safetensors"],
    close: () => server.close(),
  };
  return fake;
}
