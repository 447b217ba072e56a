import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import sharp from "sharp";

/** One call the model server received, in the order they arrived. */
export interface ReceivedCall {
  path: string;
  /** The `organization` text field when a test tags its calls with one (the prompt of a generation). */
  tag: string | undefined;
  receivedAt: number;
  /** Whether the caller hung up before the answer (a cancel or a timeout stopping the work). */
  aborted: boolean;
}

/**
 * A model server (docs/model-server.md, the product's real HTTP provider talks to it) for the call
 * queue's tests: it answers image generation and background removal with a small PNG after
 * `delayMs`, or holds every call until the test releases it; it records every call it received, when,
 * and whether its caller hung up, and how many it was working on at most at once.
 */
export async function startQueueModelServer(options: { delayMs?: number } = {}) {
  const png = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#336699" } })
    .png()
    .toBuffer();
  const received: ReceivedCall[] = [];
  const held: { call: ReceivedCall; response: ServerResponse }[] = [];
  const control = { hold: false, delayMs: options.delayMs ?? 0 };
  let working = 0;
  let mostAtOnce = 0;
  const server = createServer((request, response) => {
    if (request.method === "GET" && request.url === "/health") {
      response.writeHead(200, { "content-type": "application/json" });
      response.end("{}");
      return;
    }
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const body = Buffer.concat(chunks).toString("latin1");
      const call: ReceivedCall = {
        path: request.url ?? "/",
        tag: /name="prompt"\r\n\r\n([^\r]*)/.exec(body)?.[1],
        receivedAt: Date.now(),
        aborted: false,
      };
      received.push(call);
      working += 1;
      mostAtOnce = Math.max(mostAtOnce, working);
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        working -= 1;
      };
      response.on("close", () => {
        if (!response.writableFinished) call.aborted = true;
        finish();
      });
      const answer = () => {
        if (response.destroyed) return;
        response.writeHead(200, { "content-type": "image/png" });
        response.end(png);
      };
      if (control.hold) held.push({ call, response });
      else setTimeout(answer, control.delayMs);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  return {
    url,
    received,
    control,
    get working() {
      return working;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
    /** The calls held now (not answered, not hung up). */
    get held() {
      return held.filter((entry) => !entry.response.destroyed).map((entry) => entry.call);
    },
    /** Answers the oldest held calls (all when `count` is absent). */
    release(count = Number.POSITIVE_INFINITY) {
      let released = 0;
      while (held.length > 0 && released < count) {
        const next = held.shift();
        if (!next || next.response.destroyed) continue;
        next.response.writeHead(200, { "content-type": "image/png" });
        next.response.end(png);
        released += 1;
      }
    },
    env(features = "image-generation,image-background-removal", concurrency = 1): Record<string, string> {
      return {
        MODEL_SERVER_URL: url,
        MODEL_SERVER_FEATURES: features,
        MODEL_SERVER_CONCURRENCY: String(concurrency),
      };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const entry of held.splice(0)) entry.response.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export type QueueModelServer = Awaited<ReturnType<typeof startQueueModelServer>>;

/** Polls `condition` until it holds or `timeoutMs` passes (then throws with `what`). */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
