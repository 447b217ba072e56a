import { execFile } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request as httpRequest } from "node:http";
import { type AddressInfo, connect } from "node:net";
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
import { startThrottledLink } from "../../../test/throttled-link";
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
/** The clients' uplink: 5 MB take 200 ms, so each client is still sending when the refusal comes. */
const UPLINK_BYTES_PER_SECOND = 25 * BYTES_PER_MB;

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
  let link: Awaited<ReturnType<typeof startThrottledLink>>;
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
    link = await startThrottledLink(port, UPLINK_BYTES_PER_SECOND);
    baseUrl = link.url;
    workDir = mkdtempSync(join(tmpdir(), "prism-early-refusal-"));
    // A PNG's first bytes and then 5 MB: never read, so its content does not matter.
    upload = Buffer.concat([TINY_PNG, Buffer.alloc(UPLOAD_BYTES - TINY_PNG.length)]);
    uploadPath = join(workDir, "photo.png");
    writeFileSync(uploadPath, upload);
  });

  afterAll(async () => {
    await link?.close();
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
    // A raw socket, chunked: no length to refuse up front, so the count of what arrives decides. (Node's
    // own client stops writing once it has the answer, which would hide whether the server reads on.)
    const outcome = await new Promise<{ answer: string; sentBytes: number }>((resolve) => {
      let answer = "";
      let sentBytes = 0;
      const socket = connect({ host: "127.0.0.1", port }, () => {
        socket.write(
          [
            `POST ${ENDPOINT} HTTP/1.1`,
            "Host: 127.0.0.1",
            "Authorization: Bearer prism_NotAKeyNotAKeyNotAKeyNotAKey00000000",
            "Content-Type: multipart/form-data; boundary=x",
            "Transfer-Encoding: chunked",
            "",
            "",
          ].join("\r\n"),
        );
        const chunk = Buffer.concat([
          Buffer.from(`${BYTES_PER_MB.toString(16)}\r\n`),
          Buffer.alloc(BYTES_PER_MB),
          Buffer.from("\r\n"),
        ]);
        const send = () => {
          while (!socket.destroyed && sentBytes < 4 * MAX_IMAGE_BYTES) {
            sentBytes += BYTES_PER_MB;
            if (!socket.write(chunk)) return void socket.once("drain", send);
          }
          if (!socket.destroyed) socket.end("0\r\n\r\n");
        };
        send();
      });
      socket.on("data", (data: Buffer) => {
        answer += data.toString("utf8");
      });
      socket.on("error", () => undefined);
      socket.on("close", () => resolve({ answer, sentBytes }));
    });
    expect(outcome.answer).toMatch(/^HTTP\/1\.1 401 /);
    expect(outcome.answer).toContain('"error":"invalid-api-key"');
    // Cut past the feature's largest body (31 MB and change), long before 4 times the image limit.
    expect(outcome.sentBytes).toBeGreaterThan(MAX_IMAGE_BYTES);
    expect(outcome.sentBytes).toBeLessThan(4 * MAX_IMAGE_BYTES);
  });

  it("reads and throws away the rest of a refused upload, then serves the next request on the connection", async () => {
    const boundary = "----prism-early-refusal";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="image"; filename="photo.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      upload,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const head = (length: number) =>
      [
        `POST ${ENDPOINT} HTTP/1.1`,
        "Host: 127.0.0.1",
        "Authorization: Bearer prism_NotAKeyNotAKeyNotAKeyNotAKey00000000",
        `Content-Type: multipart/form-data; boundary=${boundary}`,
        `Content-Length: ${length}`,
        "",
        "",
      ].join("\r\n");
    // Two refused uploads back to back on one connection: the second is answered only if the server
    // read the whole of the first (a server that stops reading leaves both clients stuck).
    const answers = await new Promise<string>((resolve, reject) => {
      let received = "";
      const socket = connect({ host: "127.0.0.1", port }, () => {
        socket.write(head(body.length));
        socket.write(body);
        socket.write(head(body.length));
        socket.write(body);
      });
      socket.on("data", (data: Buffer) => {
        received += data.toString("utf8");
        if ((received.match(/"invalid-api-key"/g) ?? []).length === 2) {
          socket.destroy();
          resolve(received);
        }
      });
      socket.on("error", reject);
      setTimeout(() => {
        socket.destroy();
        reject(new Error(`only this arrived: ${received.slice(0, 300)}`));
      }, 20_000);
    });
    expect(answers.match(/HTTP\/1\.1 401 /g)).toHaveLength(2);
  });
  describe("Expect: 100-continue (curl asks for it with any upload over 1 MB)", () => {
    async function curlUpload(key: string, extra: string[] = []) {
      const { stdout } = await run("curl", [
        "--silent",
        "--show-error",
        "--write-out",
        "\n%{http_code} %{size_upload}",
        "--header",
        `Authorization: Bearer ${key}`,
        ...extra,
        `${baseUrl}${ENDPOINT}`,
      ]);
      const lines = stdout.trimEnd().split("\n");
      const [status, uploaded] = (lines.pop() ?? "").split(" ").map(Number);
      return { status, uploaded: uploaded ?? -1, body: JSON.parse(lines.join("\n")) as { error?: string } };
    }

    it("refuses from the headers without asking for the upload: curl sends none of its 5 MB", async () => {
      const refused = await curlUpload("prism_NotAKeyNotAKeyNotAKeyNotAKey00000000", [
        "--form",
        `image=@${uploadPath};type=image/png`,
      ]);
      expect(refused.status).toBe(401);
      expect(refused.body.error).toBe("invalid-api-key");
      expect(refused.uploaded).toBeLessThan(BYTES_PER_MB);
    });

    it("asks for the upload once the headers have passed, and runs the call", async () => {
      const account = await fundedAccount(testApp, 1_000_000n);
      const accepted = await curlUpload((await account.createKey()).content, [
        "--form",
        `image=@${uploadPath};type=image/png`,
      ]);
      expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
      expect(accepted.uploaded).toBeGreaterThan(UPLOAD_BYTES);
      expect(await account.requestRows()).toHaveLength(1);
    });

    it("sends 100 Continue before reading a JSON body", async () => {
      const { stdout } = await run("curl", [
        "--silent",
        "--header",
        "Expect: 100-continue",
        "--header",
        "content-type: application/json",
        "--data",
        JSON.stringify({ email: "nobody@example.com", password: "Not-the-password1!", rememberMe: false }),
        "--write-out",
        "\n%{http_code}",
        "--max-time",
        "20",
        `${baseUrl}/v1/users/login`,
      ]);
      const lines = stdout.trimEnd().split("\n");
      expect(Number(lines.pop())).toBe(400);
      expect(JSON.parse(lines.join("\n")).error).toBe("user-not-found");
    });
  });
});
