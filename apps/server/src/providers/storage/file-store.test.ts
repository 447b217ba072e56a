import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import S3rver from "s3rver";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FileStore, LocalFileStore } from "./file-store";
import { S3FileStore } from "./s3-file-store";

const key = () => `${randomUUID()}/${randomUUID()}/abcdefghijklmnop`;

function behavesLikeAFileStore(name: string, makeStore: () => FileStore, makeBroken: () => FileStore) {
  describe(name, () => {
    it("passes the readiness check when it can take writes, and fails it when it cannot", async () => {
      await expect(makeStore().check()).resolves.toBeUndefined();
      await expect(makeBroken().check()).rejects.toThrow();
    });

    it("stores, reads back with its content type, and deletes", async () => {
      const store = makeStore();
      const id = key();
      await store.put(id, Buffer.from("hello"), "text/plain");
      expect(await store.get(id)).toEqual({ data: Buffer.from("hello"), contentType: "text/plain" });
      await store.delete(id);
      expect(await store.get(id)).toBeUndefined();
      expect(await store.get(key())).toBeUndefined();
    });

    it("refuses keys that could escape their tenant", async () => {
      const store = makeStore();
      await expect(store.put("../../etc/passwd", Buffer.from("x"), "text/plain")).rejects.toThrow(
        /invalid file key/,
      );
    });
  });
}

describe("LocalFileStore", () => {
  it("writes into a project directory that was removed after its first write", async () => {
    const store = new LocalFileStore(localRoot);
    const first = key();
    await store.put(first, Buffer.from("one"), "text/plain");
    rmSync(join(localRoot, first, ".."), { recursive: true, force: true });
    const second = `${first.slice(0, first.lastIndexOf("/"))}/qrstuvwxyzabcdef`;
    await store.put(second, Buffer.from("two"), "text/plain");
    expect(await store.get(second)).toEqual({ data: Buffer.from("two"), contentType: "text/plain" });
  });
});

let localRoot: string;
let s3Root: string;
let s3: S3rver;
let endpoint: string;

beforeAll(async () => {
  localRoot = mkdtempSync(join(tmpdir(), "prism-files-"));
  s3Root = mkdtempSync(join(tmpdir(), "prism-s3-"));
  s3 = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory: s3Root,
    configureBuckets: [{ name: "prism" }],
  });
  const address = await s3.run();
  endpoint = `http://127.0.0.1:${address.port}`;
});

afterAll(async () => {
  await s3?.close();
  rmSync(localRoot, { recursive: true, force: true });
  rmSync(s3Root, { recursive: true, force: true });
});

behavesLikeAFileStore(
  "the local file store",
  () => new LocalFileStore(localRoot),
  () => {
    // A plain file where the store's directory should be: nothing can be written under it.
    const blocked = join(localRoot, "blocked");
    writeFileSync(blocked, "not a directory");
    return new LocalFileStore(join(blocked, "files"));
  },
);
const s3Store = (bucket: string) =>
  new S3FileStore({
    bucket,
    region: "us-east-1",
    endpoint,
    accessKeyId: "S3RVER",
    secretAccessKey: "S3RVER",
    forcePathStyle: true,
    prefix: "files/",
  });
behavesLikeAFileStore(
  "the S3 file store (against a local S3-compatible server)",
  () => s3Store("prism"),
  () => s3Store("no-such-bucket"),
);
