import { randomUUID } from "node:crypto";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
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
  it("keeps a PNG, JPEG or WebP as one file typed by its bytes, and anything else with its type beside it", async () => {
    const store = new LocalFileStore(localRoot);
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      Buffer.from("rest"),
    ]);
    const image = key();
    await store.put(image, png, "image/png");
    expect(existsSync(join(localRoot, `${image}.meta.json`))).toBe(false);
    expect(await store.get(image)).toEqual({ data: png, contentType: "image/png" });

    // Bytes that say PNG stored under another type keep the type they were given.
    const labelled = key();
    await store.put(labelled, png, "application/octet-stream");
    expect(existsSync(join(localRoot, `${labelled}.meta.json`))).toBe(true);
    expect(await store.get(labelled)).toEqual({ data: png, contentType: "application/octet-stream" });

    const audio = key();
    await store.put(audio, Buffer.from("RIFF....WAVEfmt "), "audio/wav");
    expect(await store.get(audio)).toEqual({
      data: Buffer.from("RIFF....WAVEfmt "),
      contentType: "audio/wav",
    });
    await store.delete(audio);
    expect(existsSync(join(localRoot, `${audio}.meta.json`))).toBe(false);
  });

  it("still reads a file stored with a sidecar before images went without one", async () => {
    const store = new LocalFileStore(localRoot);
    const id = key();
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3]);
    await store.put(id, Buffer.from("placeholder"), "text/plain");
    writeFileSync(join(localRoot, id), jpeg);
    writeFileSync(join(localRoot, `${id}.meta.json`), JSON.stringify({ contentType: "image/jpeg" }));
    expect(await store.get(id)).toEqual({ data: jpeg, contentType: "image/jpeg" });
  });

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
