import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { BYTES_PER_MB, MAX_IMAGE_BYTES } from "@prism/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  fundedAccount,
  imageModelEnv,
  limitsWith,
  removeBackground,
  startImageModelServer,
  TINY_PNG,
} from "../../../test/key-fixtures";
import type { LocalServer } from "../../../test/local-http-server";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { cachedBalance } from "../ledger/ledger.service";

/**
 * Early refusals as the clients people use meet them (issue 30): a call refused from its headers (401,
 * 402, 403, 429) before its upload is read must reach Node's `fetch` (undici), curl and Python
 * `requests` as its JSON answer, every time, with a 5 MB upload; the upload is thrown away, never
 * stored, and the server reads no more than the feature's largest legitimate body.
 */

const run = promisify(execFile);
const ENDPOINT = "/v1/images/background-removal";
const UPLOAD_BYTES = 5 * BYTES_PER_MB;
const TRIES = 10;

interface Answer {
  status: number;
  error?: string;
  /** The client's own failure (EPIPE, a reset) instead of an answer. */
  failure?: string;
}

/** `requests` as a Python user calls it, TRIES times, printing one JSON line per answer. */
const PYTHON_CLIENT = `
import json, sys, requests
url, key, path, tries = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
for _ in range(tries):
    try:
        with open(path, "rb") as image:
            r = requests.post(url, headers={"Authorization": "Bearer " + key},
                              files={"image": ("photo.png", image, "image/png")}, timeout=60)
        print(json.dumps({"status": r.status_code, "error": r.json().get("error")}))
    except Exception as error:
        print(json.dumps({"status": 0, "failure": type(error).__name__ + ": " + str(error)[:120]}))
`;

describe("early refusals reach every client as their JSON answer", () => {
  let modelServer: LocalServer;
  let testApp: TestApp;
  let baseUrl: string;
  let port: number;
  let workDir: string;
  let uploadPath: string;
  let upload: Buffer;

  beforeAll(async () => {
    modelServer = await startImageModelServer();
    testApp = await createTestApp(imageModelEnv(modelServer));
    await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    port = (testApp.app.server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}`;
    workDir = mkdtempSync(join(tmpdir(), "prism-early-refusal-"));
    // A PNG's first bytes and then 5 MB: never read, so its content does not matter.
    upload = Buffer.concat([TINY_PNG, Buffer.alloc(UPLOAD_BYTES - TINY_PNG.length)]);
    uploadPath = join(workDir, "photo.png");
    writeFileSync(uploadPath, upload);
  });

  afterAll(async () => {
    await testApp?.close();
    await modelServer?.close();
    if (workDir) rmSync(workDir, { recursive: true, force: true });
  });

  async function withFetch(key: string): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let index = 0; index < TRIES; index += 1) {
      const form = new FormData();
      form.append("image", new Blob([upload], { type: "image/png" }), "photo.png");
      try {
        const response = await fetch(`${baseUrl}${ENDPOINT}`, {
          method: "POST",
          headers: { authorization: `Bearer ${key}` },
          body: form,
        });
        answers.push({
          status: response.status,
          error: ((await response.json()) as { error?: string }).error,
        });
      } catch (error) {
        const cause = (error as { cause?: { code?: string; message?: string } }).cause;
        answers.push({ status: 0, failure: `${String(error)} (${cause?.code ?? cause?.message ?? "?"})` });
      }
    }
    return answers;
  }

  async function withCurl(key: string): Promise<Answer[]> {
    const answers: Answer[] = [];
    for (let index = 0; index < TRIES; index += 1) {
      try {
        const { stdout } = await run("curl", [
          "--silent",
          "--show-error",
          "--write-out",
          "\n%{http_code}",
          "--header",
          `Authorization: Bearer ${key}`,
          "--form",
          `image=@${uploadPath};type=image/png`,
          `${baseUrl}${ENDPOINT}`,
        ]);
        const lines = stdout.trimEnd().split("\n");
        const status = Number(lines.pop());
        answers.push({ status, error: (JSON.parse(lines.join("\n")) as { error?: string }).error });
      } catch (error) {
        answers.push({ status: 0, failure: String(error).slice(0, 200) });
      }
    }
    return answers;
  }

  async function withRequests(key: string): Promise<Answer[]> {
    const { stdout } = await run(
      "python3",
      ["-c", PYTHON_CLIENT, `${baseUrl}${ENDPOINT}`, key, uploadPath, String(TRIES)],
      { timeout: 120_000 },
    );
    return stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Answer);
  }

  const clients = { fetch: withFetch, curl: withCurl, requests: withRequests } as const;

  /** Each client calls TRIES times with a key `keyFor` makes (one per client); every answer must be read. */
  async function expectEveryClientReads(
    keyFor: () => Promise<string>,
    expected: { status: number; error: string },
  ) {
    for (const [name, call] of Object.entries(clients)) {
      const answers = await call(await keyFor());
      expect(answers, `${name}: ${JSON.stringify(answers)}`).toEqual(
        Array.from({ length: TRIES }, () => expected),
      );
    }
  }

  it("401 invalid-api-key: a key that does not exist", async () => {
    await expectEveryClientReads(async () => "prism_NotAKeyNotAKeyNotAKeyNotAKey00000000", {
      status: 401,
      error: "invalid-api-key",
    });
  });

  it("402 insufficient-balance: an organization that cannot pay, nothing stored or charged", async () => {
    const account = await fundedAccount(testApp, 0n);
    await expectEveryClientReads(async () => (await account.createKey()).content, {
      status: 402,
      error: "insufficient-balance",
    });
    expect(await account.requestRows()).toEqual([]);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(0n);
  });

  it("403 key-feature-not-allowed: a key limited to another feature", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    await expectEveryClientReads(
      async () => (await account.createKey(limitsWith({ endpoints: ["/v1/images/generation"] }))).content,
      { status: 403, error: "key-feature-not-allowed" },
    );
    expect(await account.requestRows()).toEqual([]);
    expect(await cachedBalance(testApp.database.db, account.organizationId)).toBe(1_000_000n);
  });

  it("429 rate-limited: a key over its requests per minute", async () => {
    const account = await fundedAccount(testApp, 1_000_000n);
    await expectEveryClientReads(
      async () => {
        const key = await account.createKey(limitsWith({ requestsPerMinute: 1 }));
        // The key's one request of this minute.
        expect((await removeBackground(testApp, key.content)).statusCode).toBe(200);
        return key.content;
      },
      { status: 429, error: "rate-limited" },
    );
    expect(await account.requestRows()).toHaveLength(Object.keys(clients).length);
  });

  it("closes the connection of a refused call that declares more than the feature's largest body", async () => {
    const boundary = "----prism-early-refusal";
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="big.png"\r\nContent-Type: image/png\r\n\r\n`,
    );
    const declared = 2 * MAX_IMAGE_BYTES;
    const answer = await new Promise<{ status: number; connection?: string; error?: string }>(
      (resolve, reject) => {
        const client = httpRequest({
          host: "127.0.0.1",
          port,
          method: "POST",
          path: ENDPOINT,
          headers: {
            authorization: "Bearer prism_NotAKeyNotAKeyNotAKeyNotAKey00000000",
            "content-type": `multipart/form-data; boundary=${boundary}`,
            "content-length": String(declared),
          },
        });
        client.on("error", () => undefined);
        client.on("response", (response) => {
          const chunks: Buffer[] = [];
          response.on("data", (chunk: Buffer) => chunks.push(chunk));
          response.on("end", () => {
            client.destroy();
            resolve({
              status: response.statusCode ?? 0,
              connection: response.headers.connection,
              error: JSON.parse(Buffer.concat(chunks).toString("utf8")).error,
            });
          });
        });
        setTimeout(() => reject(new Error("no answer")), 10_000);
        client.write(head);
        client.write(Buffer.alloc(BYTES_PER_MB));
      },
    );
    expect(answer).toEqual({ status: 401, connection: "close", error: "invalid-api-key" });
  });

  it("cuts a refused call's connection once it sends more than the feature's largest body", async () => {
    // Chunked: no length to refuse up front, so the count of what arrives decides.
    const closed = await new Promise<{ status: number; sentBytes: number }>((resolve) => {
      let status = 0;
      let sentBytes = 0;
      const client = httpRequest({
        host: "127.0.0.1",
        port,
        method: "POST",
        path: ENDPOINT,
        headers: {
          authorization: "Bearer prism_NotAKeyNotAKeyNotAKeyNotAKey00000000",
          "content-type": "multipart/form-data; boundary=x",
          "transfer-encoding": "chunked",
        },
      });
      client.on("response", (response) => {
        status = response.statusCode ?? 0;
        response.resume();
      });
      const chunk = Buffer.alloc(BYTES_PER_MB);
      const send = () => {
        while (!client.destroyed && sentBytes < 4 * MAX_IMAGE_BYTES) {
          sentBytes += chunk.length;
          if (!client.write(chunk)) return void client.once("drain", send);
        }
        if (!client.destroyed) client.end();
      };
      client.on("error", () => resolve({ status, sentBytes }));
      client.on("close", () => resolve({ status, sentBytes }));
      send();
    });
    expect(closed.status).toBe(401);
    // Cut somewhere past the feature's largest body (31 MB and change), long before 4 times the limit.
    expect(closed.sentBytes).toBeLessThan(4 * MAX_IMAGE_BYTES);
  });
});
