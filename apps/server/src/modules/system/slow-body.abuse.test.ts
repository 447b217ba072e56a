import { connect } from "node:net";
import { DEFAULT_REQUEST_TIMEOUT_MS } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postFrom } from "../../../test/appending-proxy";
import { multipart } from "../../../test/images";
import { fundedAccount, imageModelEnv, startImageModelServer, TINY_PNG } from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";

/**
 * A body that trickles in, attacked over a real socket: an unauthenticated sign-in announcing 100 bytes
 * and sending one every 200 ms must be cut off once the request timeout (here a short configured one)
 * has passed, long before it is complete. A legitimate call whose model takes longer than that timeout
 * still gets its answer: only the arrival of the request is timed.
 */

const REQUEST_TIMEOUT_MS = 1_500;
const ANNOUNCED_BYTES = 100;
const BYTE_EVERY_MS = 200;

interface TrickleOutcome {
  /** What the server wrote before closing, if anything. */
  answer: string;
  /** Bytes of the body sent when the connection closed. */
  sentBytes: number;
}

function trickleSignIn(port: number): Promise<TrickleOutcome> {
  return new Promise((done, fail) => {
    const socket = connect({ host: "127.0.0.1", port });
    let answer = "";
    let sentBytes = 0;
    let timer: NodeJS.Timeout | undefined;
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8");
    });
    socket.on("error", () => undefined);
    socket.on("close", () => {
      clearInterval(timer);
      done({ answer, sentBytes });
    });
    socket.once("connect", () => {
      socket.write(
        `POST /v1/users/login HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\nContent-Length: ${ANNOUNCED_BYTES}\r\n\r\n`,
      );
      timer = setInterval(() => {
        if (sentBytes >= ANNOUNCED_BYTES) {
          clearInterval(timer);
          socket.destroy();
          fail(new Error("the whole trickled body was accepted: nothing cut the request off"));
          return;
        }
        socket.write(sentBytes === 0 ? "{" : " ");
        sentBytes += 1;
      }, BYTE_EVERY_MS);
    });
  });
}

describe("a request body that trickles in", () => {
  const model: { delayMs: number } = { delayMs: 0 };
  let modelServer: LocalServer;
  let testApp: TestApp;
  let port: number;

  beforeAll(async () => {
    modelServer = await startImageModelServer(model);
    testApp = await createTestApp({
      ...imageModelEnv(modelServer),
      REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS),
    });
    const origin = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    port = Number(new URL(origin).port);
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
  });

  it("is cut off with 408 once the request timeout has passed, long before it is complete", async () => {
    const outcome = await trickleSignIn(port);
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(outcome.sentBytes).toBeLessThan(ANNOUNCED_BYTES / 2);
  });

  it("still answers, over its socket, a call whose model takes longer than the request timeout", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    const key = await account.createKey();
    const body = multipart([{ name: "image", value: TINY_PNG, filename: "p.png", contentType: "image/png" }]);
    model.delayMs = REQUEST_TIMEOUT_MS * 3;
    try {
      const response = await postFrom(
        "127.0.0.1",
        `http://127.0.0.1:${port}/v1/images/background-removal`,
        body.payload,
        {
          authorization: `Bearer ${key.content}`,
          "content-type": body.contentType,
        },
      );
      expect(response.status, response.text).toBe(200);
    } finally {
      model.delayMs = 0;
    }
  });

  it("has a request timeout by default that fits the largest legitimate upload", async () => {
    const defaults = await createTestApp();
    try {
      expect(defaults.config.requestTimeoutMs).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
      expect(defaults.app.server.requestTimeout).toBe(DEFAULT_REQUEST_TIMEOUT_MS);
      // An idle connection lasts as long as a synchronous call may wait in the queue and then run.
      expect(defaults.app.server.timeout).toBe(
        DEFAULT_REQUEST_TIMEOUT_MS +
          defaults.config.inference.queueTimeoutMs +
          defaults.config.inference.providerTimeoutMs,
      );
    } finally {
      await defaults.close();
    }
  });
});
