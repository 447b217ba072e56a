import { type StubCall, startModelServerStub } from "./model-server-stub";

/** One call the model server received, in the order they arrived. */
export interface ReceivedCall {
  path: string;
  /** The `organization` text field when a test tags its calls with one (the prompt of a generation). */
  tag: string | undefined;
  receivedAt: number;
  /** Whether the caller hung up before the answer (a cancel or a timeout stopping the work). */
  aborted: boolean;
}

function tagged(call: StubCall): ReceivedCall {
  return {
    path: call.path,
    tag: /name="prompt"\r\n\r\n([^\r]*)/.exec(call.raw.toString("latin1"))?.[1],
    receivedAt: call.receivedAt,
    aborted: call.aborted,
  };
}

/**
 * The model server stub as the call queue's tests use it: image generation and background removal
 * answer a small PNG after `delayMs`, or are held until the test releases them; every call is read
 * with its tag (the prompt), and `env()` points a server at it with a given concurrency.
 */
export async function startQueueModelServer(options: { delayMs?: number } = {}) {
  const stub = await startModelServerStub({
    answers: {},
    otherwise: "png",
    png: { background: "#336699" },
  });
  stub.control.delayMs = options.delayMs ?? 0;
  return {
    url: stub.url,
    control: stub.control,
    release: stub.release,
    close: stub.close,
    /** Every call received, in order. */
    get received(): ReceivedCall[] {
      return stub.calls.map(tagged);
    },
    /** The calls held now (not answered, not hung up). */
    get held(): ReceivedCall[] {
      return stub.held.map(tagged);
    },
    get working() {
      return stub.working;
    },
    get mostAtOnce() {
      return stub.mostAtOnce;
    },
    env(features = "image-generation,image-background-removal", concurrency = 1): Record<string, string> {
      return {
        MODEL_SERVER_URL: stub.url,
        MODEL_SERVER_FEATURES: features,
        MODEL_SERVER_CONCURRENCY: String(concurrency),
      };
    },
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
