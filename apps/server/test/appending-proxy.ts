import { type ChildProcess, spawn } from "node:child_process";
import { request } from "node:http";
import { resolve } from "node:path";
import { createInterface } from "node:readline";

const PROXY = resolve(import.meta.dirname, "appending-proxy-process.mjs");

export interface AppendingProxy {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts test/appending-proxy-process.mjs as its own process in front of `target`: it appends the address of
 * whoever connects to X-Forwarded-For and connects to the target from `localAddress` (a loopback
 * address of its own, so the server can tell the proxy from the client).
 */
export async function startAppendingProxy(target: string, localAddress: string): Promise<AppendingProxy> {
  const child: ChildProcess = spawn(process.execPath, [PROXY, target, localAddress], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const exited = new Promise<void>((done) => child.once("exit", () => done()));
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<string>((done, fail) => {
    lines.once("line", done);
    child.once("exit", (code) => fail(new Error(`the proxy exited with ${code}`)));
  });
  lines.close();
  return {
    url: `http://127.0.0.1:${port}`,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await exited;
    },
  };
}

/** A POST from the given loopback address (a client machine of its own), answering status and JSON. */
export function postFrom(
  localAddress: string,
  url: string,
  body: Buffer | string,
  headers: Record<string, string>,
): Promise<{ status: number; json: () => Record<string, unknown>; text: string }> {
  return new Promise((done, fail) => {
    const sent = request(url, { method: "POST", localAddress, headers }, (answer) => {
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const text = Buffer.concat(chunks).toString("utf8");
        done({
          status: answer.statusCode ?? 0,
          text,
          json: () => JSON.parse(text) as Record<string, unknown>,
        });
      });
    });
    sent.on("error", fail);
    sent.end(body);
  });
}
