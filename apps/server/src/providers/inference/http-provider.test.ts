import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import {
  backgroundRemovalFeature,
  identityInpaintingFeature,
  imageGenerationFeature,
  pegasusTrainingFeature,
  transcriptionFeature,
} from "@prism/contract";
import { afterEach, describe, expect, it, onTestFinished } from "vitest";
import { type LocalServer, sendJson, startLocalServer } from "../../../test/local-http-server";
import { ProviderError, type ProviderInput } from "./feature-provider";
import { createHttpProvider, UNREACHABLE_REASON } from "./http-provider";

const PNG = Buffer.from("89504e470d0a1a0a0000000d49484452", "hex");
const NO_INPUT: ProviderInput = { files: {}, body: {} };

let server: LocalServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

function signal(): AbortSignal {
  return new AbortController().signal;
}

/** The parts of a multipart body as `name -> [{filename?, type?, value}]`, read naively for assertions. */
function multipartParts(request: LocalServer["requests"][number]) {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(String(request.headers["content-type"]));
  const marker = `--${boundary?.[1] ?? boundary?.[2]}`;
  const parts: Record<string, { filename?: string; type?: string; value: string }[]> = {};
  for (const chunk of request.body.split(marker).slice(1, -1)) {
    const [head = "", ...rest] = chunk.replace(/^\r\n/, "").split("\r\n\r\n");
    const value = rest.join("\r\n\r\n").replace(/\r\n$/, "");
    const name = /name="([^"]+)"/.exec(head)?.[1] ?? "";
    const filename = /filename="([^"]+)"/.exec(head)?.[1];
    const type = /content-type: *([^\r\n]+)/i.exec(head)?.[1];
    const entry = { value, ...(filename ? { filename } : {}), ...(type ? { type } : {}) };
    parts[name] = [...(parts[name] ?? []), entry];
  }
  return parts;
}

describe("http model-server provider", () => {
  it("posts the documented multipart fields and returns the image", async () => {
    server = await startLocalServer((_request, response) => {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(PNG);
    });
    const provider = createHttpProvider({
      baseUrl: `${server.url}/prism/`,
      features: "all",
      apiKey: "secret-key",
      timeoutMs: 5_000,
    });

    const output = await provider.run(
      identityInpaintingFeature,
      {
        files: {
          image: [{ buffer: Buffer.from("IMAGEBYTES"), mimeType: "image/png", filename: "photo.png" }],
          mask: [{ buffer: Buffer.from("MASKBYTES"), mimeType: "image/png", filename: "mask.png" }],
        },
        body: { identity_id: "public-id", artistic: true, prompt: "smiling", ignored: undefined },
        identity: { identityId: "clone-7", requestId: "req-42" },
      },
      signal(),
    );

    expect(output).toEqual({ kind: "image", data: PNG, mimeType: "image/png" });
    const [request] = server.requests;
    expect(request?.method).toBe("POST");
    expect(request?.path).toBe("/prism/identity-inpainting");
    expect(request?.headers.authorization).toBe("Bearer secret-key");
    expect(request?.headers["x-authorization-identity-request-id"]).toBe("req-42");
    expect(String(request?.headers["content-type"])).toMatch(/^multipart\/form-data; boundary=/);
    const parts = multipartParts(request!);
    expect(parts.image).toEqual([{ filename: "photo.png", type: "image/png", value: "IMAGEBYTES" }]);
    expect(parts.mask).toEqual([{ filename: "mask.png", type: "image/png", value: "MASKBYTES" }]);
    expect(parts.identity_id).toEqual([{ value: "clone-7" }]);
    expect(parts.artistic).toEqual([{ value: "true" }]);
    expect(parts.prompt).toEqual([{ value: "smiling" }]);
    expect(parts.ignored).toBeUndefined();
  });

  it("repeats the field for multi-file inputs and returns the training answer as JSON", async () => {
    server = await startLocalServer((_request, response) =>
      sendJson(response, 200, { identityId: "clone-1", status: "pending" }),
    );
    const provider = createHttpProvider({ baseUrl: server.url, features: "all", timeoutMs: 5_000 });
    const images = Array.from({ length: 10 }, (_, index) => ({
      buffer: Buffer.from(`photo-${index}`),
      mimeType: "image/jpeg",
      filename: `photo-${index}.jpg`,
    }));

    const output = await provider.run(
      pegasusTrainingFeature,
      { files: { images }, body: { description: "Ada" } },
      signal(),
    );

    expect(output).toEqual({ kind: "json", body: { identityId: "clone-1", status: "pending" } });
    const request = server.requests[0]!;
    expect(request.path).toBe("/pegasus-training");
    expect(request.headers.authorization).toBeUndefined();
    const parts = multipartParts(request);
    expect(parts.images?.map((part) => part.value)).toEqual(images.map((image) => image.buffer.toString()));
    expect(parts.description).toEqual([{ value: "Ada" }]);
  });

  it("takes a training answer without a status as pending, and refuses one without an identity", async () => {
    let answer: unknown = { identityId: "clone-2" };
    server = await startLocalServer((_request, response) => sendJson(response, 200, answer));
    const provider = createHttpProvider({ baseUrl: server.url, features: "all", timeoutMs: 5_000 });
    const input = {
      files: {
        images: Array.from({ length: 10 }, (_, index) => ({
          buffer: Buffer.from(`photo-${index}`),
          mimeType: "image/jpeg",
          filename: `photo-${index}.jpg`,
        })),
      },
      body: { description: "Ada" },
    };

    await expect(provider.run(pegasusTrainingFeature, input, signal())).resolves.toEqual({
      kind: "json",
      body: { identityId: "clone-2", status: "pending" },
    });
    answer = { status: "pending" };
    await expect(provider.run(pegasusTrainingFeature, input, signal())).rejects.toMatchObject({
      code: "failed",
      message: "The model server's result does not have the documented shape.",
    });
  });

  it("returns a transcription and rejects a body of the wrong shape", async () => {
    let answer: unknown = { language: "en", segments: [{ start: 0, end: 1.5, text: "Hello." }] };
    server = await startLocalServer((_request, response) => sendJson(response, 200, answer));
    const provider = createHttpProvider({
      baseUrl: server.url,
      features: ["speech-to-text"],
      timeoutMs: 5_000,
    });
    const input: ProviderInput = {
      files: { audio: [{ buffer: Buffer.from("RIFF"), mimeType: "audio/wav", filename: "a.wav" }] },
      body: { language: "en" },
    };

    await expect(provider.run(transcriptionFeature, input, signal())).resolves.toEqual({
      kind: "json",
      body: { language: "en", segments: [{ start: 0, end: 1.5, text: "Hello." }] },
    });
    answer = { text: "Hello." };
    await expect(provider.run(transcriptionFeature, input, signal())).rejects.toMatchObject({
      code: "failed",
    });
    expect(server.requests[0]?.path).toBe("/speech-to-text");
  });

  it("fails when an image feature gets JSON", async () => {
    server = await startLocalServer((_request, response) => sendJson(response, 200, { ok: true }));
    const provider = createHttpProvider({ baseUrl: server.url, features: "all", timeoutMs: 5_000 });
    const error = await provider.run(backgroundRemovalFeature, NO_INPUT, signal()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProviderError);
    expect(error).toMatchObject({ code: "failed" });
  });

  it("maps error answers: the server's message, a generic text, 422 and 503", async () => {
    const answers: [number, string, string][] = [
      [500, "application/json", JSON.stringify({ error: "CUDA out of memory" })],
      [500, "application/json", JSON.stringify({ error: "bad", message: "The sampler crashed." })],
      [502, "text/html", "<html>Bad gateway</html>"],
      [422, "application/json", JSON.stringify({ message: "No face found in the source image." })],
      [503, "application/json", JSON.stringify({ message: "Model is loading." })],
    ];
    server = await startLocalServer((_request, response) => {
      const [status, type, body] = answers[server!.requests.length - 1]!;
      response.writeHead(status, { "content-type": type });
      response.end(body);
    });
    const provider = createHttpProvider({ baseUrl: server.url, features: "all", timeoutMs: 5_000 });
    const results = [];
    for (const _ of answers) {
      results.push(await provider.run(imageGenerationFeature, NO_INPUT, signal()).catch((e: unknown) => e));
    }
    expect(
      results.map((error) => ({ ...(error as ProviderError), message: (error as Error).message })),
    ).toEqual([
      { code: "failed", name: "ProviderError", message: "CUDA out of memory" },
      { code: "failed", name: "ProviderError", message: "The sampler crashed." },
      {
        code: "failed",
        name: "ProviderError",
        message: "The model server could not process the request (HTTP 502).",
      },
      { code: "invalid-input", name: "ProviderError", message: "No face found in the source image." },
      { code: "unavailable", name: "ProviderError", message: "Model is loading." },
    ]);
  });

  it("times out on its own deadline and on the caller's abort", async () => {
    // Never answers; its connections are cut when the test ends.
    const silent = createServer(() => {});
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}`;
    onTestFinished(
      () =>
        new Promise<void>((resolve) => {
          silent.closeAllConnections();
          silent.close(() => resolve());
        }),
    );
    const provider = createHttpProvider({ baseUrl: url, features: "all", timeoutMs: 100 });
    await expect(provider.run(imageGenerationFeature, NO_INPUT, signal())).rejects.toMatchObject({
      code: "timeout",
    });

    const slow = createHttpProvider({ baseUrl: url, features: "all", timeoutMs: 60_000 });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    await expect(slow.run(imageGenerationFeature, NO_INPUT, controller.signal)).rejects.toMatchObject({
      code: "timeout",
    });
  });

  it("reports an unreachable server as unavailable", async () => {
    const provider = createHttpProvider({ baseUrl: "http://127.0.0.1:9", features: "all", timeoutMs: 2_000 });
    await expect(provider.run(imageGenerationFeature, NO_INPUT, signal())).rejects.toMatchObject({
      code: "unavailable",
      message: UNREACHABLE_REASON,
    });
    await expect(provider.availability(imageGenerationFeature)).resolves.toEqual({
      available: false,
      reason: UNREACHABLE_REASON,
    });
  });

  it("probes /health with the key and caches the answer", async () => {
    let healthy = true;
    server = await startLocalServer((_request, response) => sendJson(response, healthy ? 200 : 500, {}));
    const provider = createHttpProvider({
      baseUrl: server.url,
      features: ["image-generation"],
      apiKey: "k",
      timeoutMs: 5_000,
      healthCacheMs: 200,
    });

    expect(provider.supports(imageGenerationFeature)).toBe(true);
    expect(provider.supports(transcriptionFeature)).toBe(false);
    await expect(provider.availability(imageGenerationFeature)).resolves.toEqual({ available: true });
    healthy = false;
    await expect(provider.availability(imageGenerationFeature)).resolves.toEqual({ available: true });
    expect(server.requests.map((request) => request.path)).toEqual(["/health"]);
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");

    await new Promise((resolve) => setTimeout(resolve, 250));
    await expect(provider.availability(imageGenerationFeature)).resolves.toEqual({
      available: false,
      reason: UNREACHABLE_REASON,
    });
    await expect(provider.availability(transcriptionFeature)).resolves.toMatchObject({ available: false });
    expect(server.requests).toHaveLength(2);
  });

  it("reads a training status", async () => {
    server = await startLocalServer((request, response) =>
      request.path.endsWith("/missing")
        ? sendJson(response, 404, { error: "Unknown identity." })
        : sendJson(response, 200, { status: "training" }),
    );
    const provider = createHttpProvider({
      baseUrl: server.url,
      features: "all",
      apiKey: "k",
      timeoutMs: 5_000,
    });
    await expect(provider.trainingStatus("clone/1")).resolves.toEqual({ status: "training" });
    expect(server.requests[0]?.path).toBe("/pegasus-training/clone%2F1");
    expect(server.requests[0]?.headers.authorization).toBe("Bearer k");
    await expect(provider.trainingStatus("missing")).rejects.toMatchObject({
      code: "failed",
      message: "Unknown identity.",
    });
  });

  it("rejects unknown feature ids at construction", () => {
    expect(() => createHttpProvider({ baseUrl: "http://x", features: ["nope"], timeoutMs: 1 })).toThrow(
      /nope/,
    );
  });
});
