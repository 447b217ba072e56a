import type { ServerResponse } from "node:http";
import sharp from "sharp";
import { type LocalRequest, type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A model server for tests that count money: background removal answers a small PNG, speech to text a
 * one-segment transcript, and upscaling fails (500), so a test has a success, a per-minute price and a
 * refunded failure. Serve it with `MODEL_SERVER_FEATURES` naming {@link STUB_MODEL_SERVER_FEATURES}.
 */
export const STUB_MODEL_SERVER_FEATURES = "image-background-removal,speech-to-text,image-upscaling";

/** A one-segment transcript, what the stub answers speech to text with unless told otherwise. */
export const STUB_TRANSCRIPT = { language: "en", segments: [{ start: 0, end: 1, text: "hello" }] };

/**
 * What the stub answers one feature path with: a small PNG, a JSON body with a status (a failure when
 * 4xx/5xx), nothing at all (`hang`: the call stays open until the caller or the stub's close ends it),
 * or the test's own answer.
 */
export type StubAnswer =
  | "png"
  | "hang"
  | { status: number; json: unknown }
  | ((request: LocalRequest, response: ServerResponse, png: Buffer) => void);

export interface StubModelServerOptions {
  /** Per path (`/image-generation`, `/speech-to-text`...): the answer; a POST to a path not named gets 404. */
  answers?: Record<string, StubAnswer>;
  /** What a request to a path not in `answers` gets (404 unless set). */
  otherwise?: StubAnswer;
  /** Whether GET /health answers 200 (true unless set): a model server that is down when false. */
  healthy?: boolean;
  /** The PNG answered: a square of `side` pixels (8 unless set) of one colour. */
  png?: { side?: number; background?: string };
}

/** A feature call the stub received: when, and whether its caller hung up before the answer. */
export interface StubCall extends LocalRequest {
  receivedAt: number;
  /** Whether the caller hung up before the answer (a cancel or a timeout stopping the work). */
  aborted: boolean;
}

/** A stub model server: the local server and its controls. */
export interface StubModelServer extends LocalServer {
  /** How long a PNG or JSON answer waits before it is sent; a test may change it between calls. */
  control: { delayMs: number; hold: boolean };
  /** The feature calls received (every request but GET /health), in order. */
  readonly calls: StubCall[];
  /** Calls held (`control.hold`), not answered yet and not hung up. */
  readonly held: StubCall[];
  /** How many calls it is working on now, and the most it worked on at once. */
  readonly working: number;
  readonly mostAtOnce: number;
  /** Answers the oldest held calls as they would have been answered (all when `count` is absent). */
  release(count?: number): void;
  /** Resolves with the path of the first feature call received. */
  firstCall: Promise<string>;
}

/**
 * The model server of docs/model-server.md for tests, speaking the protocol the product's HTTP provider
 * talks: each feature path answers as `answers` says (by default {@link startStubModelServer}'s three),
 * after `control.delayMs`, or is held while `control.hold` until the test releases it.
 */
export async function startModelServerStub(options: StubModelServerOptions = {}): Promise<StubModelServer> {
  const side = options.png?.side ?? 8;
  const png = await sharp({
    create: { width: side, height: side, channels: 3, background: options.png?.background ?? "#010203" },
  })
    .png()
    .toBuffer();
  const answers = options.answers ?? {
    "/image-background-removal": "png",
    "/speech-to-text": { status: 200, json: STUB_TRANSCRIPT },
    "/image-upscaling": { status: 500, json: { error: "out of memory" } },
  };
  const calls: StubCall[] = [];
  const held: { request: StubCall; response: ServerResponse; answer: StubAnswer }[] = [];
  let working = 0;
  let mostAtOnce = 0;
  const control = { delayMs: 0, hold: false };
  let markFirstCall: (path: string) => void = () => undefined;
  const firstCall = new Promise<string>((resolve) => {
    markFirstCall = resolve;
  });
  const respond = (request: LocalRequest, response: ServerResponse, answer: StubAnswer) => {
    if (response.destroyed || answer === "hang") return;
    if (typeof answer === "function") return answer(request, response, png);
    if (answer === "png") {
      response.writeHead(200, { "content-type": "image/png" });
      response.end(png);
      return;
    }
    sendJson(response, answer.status, answer.json);
  };
  const server = await startLocalServer((request, response) => {
    if (request.method === "GET" && request.path === "/health") {
      return sendJson(response, options.healthy === false ? 503 : 200, {});
    }
    const call: StubCall = Object.assign(request, { receivedAt: Date.now(), aborted: false });
    calls.push(call);
    markFirstCall(request.path);
    working += 1;
    mostAtOnce = Math.max(mostAtOnce, working);
    response.on("close", () => {
      if (!response.writableFinished) call.aborted = true;
      working -= 1;
    });
    const answer = answers[request.path] ??
      options.otherwise ?? { status: 404, json: { message: "unknown" } };
    if (control.hold) {
      held.push({ request: call, response, answer });
      return;
    }
    if (control.delayMs > 0) setTimeout(() => respond(call, response, answer), control.delayMs);
    else respond(call, response, answer);
  });
  return {
    ...server,
    control,
    calls,
    get held() {
      return held.filter((entry) => !entry.response.destroyed).map((entry) => entry.request);
    },
    get working() {
      return working;
    },
    get mostAtOnce() {
      return mostAtOnce;
    },
    release(count = Number.POSITIVE_INFINITY) {
      let released = 0;
      while (held.length > 0 && released < count) {
        const next = held.shift();
        if (!next || next.response.destroyed) continue;
        respond(next.request, next.response, next.answer);
        released += 1;
      }
    },
    firstCall,
  };
}

/** The stub with its default answers: {@link STUB_MODEL_SERVER_FEATURES}. */
export function startStubModelServer(): Promise<StubModelServer> {
  return startModelServerStub();
}
