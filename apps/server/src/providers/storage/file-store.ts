import { constants } from "node:fs";
import { access, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";

export interface StoredObject {
  data: Buffer;
  contentType: string;
}

/**
 * Where input and result files live. Keys are `<organizationId>/<projectId>/<random>`; the local
 * directory is the embedded default, an S3-compatible bucket the production option.
 */
export interface FileStore {
  put(key: string, data: Buffer, contentType: string): Promise<void>;
  get(key: string): Promise<StoredObject | undefined>;
  delete(key: string): Promise<void>;
  /** Throws unless the store can take writes now (the readiness probe asks). */
  check(): Promise<void>;
}

const KEY_PATTERN = /^[0-9a-f-]{36}\/[0-9a-f-]{36}\/[A-Za-z0-9_-]{10,80}$/;

export function isValidFileKey(key: string): boolean {
  return KEY_PATTERN.test(key);
}

/**
 * The content type of the image formats the gateway stores most (every result, most inputs), from
 * their first bytes: such a file needs no sidecar to say what it is. Anything else gets one.
 */
export function sniffedImageType(data: Buffer): string | undefined {
  if (data.length >= 8 && data.readUInt32BE(0) === 0x89504e47 && data.readUInt32BE(4) === 0x0d0a1a0a) {
    return "image/png";
  }
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return "image/jpeg";
  if (
    data.length >= 12 &&
    data.toString("latin1", 0, 4) === "RIFF" &&
    data.toString("latin1", 8, 12) === "WEBP"
  ) {
    return "image/webp";
  }
  return undefined;
}

/**
 * Files under DATA_DIR/files. A PNG, JPEG or WebP image is one file, its type read from its first
 * bytes; anything else (audio, any type its bytes do not name) has a small sidecar holding its content
 * type, which wins when present. One file per image halves the writes of a feature call.
 */
export class LocalFileStore implements FileStore {
  private readonly root: string;
  /** Directories this process made: a feature call's writes skip the `mkdir` after the first. */
  private readonly madeDirectories = new Set<string>();

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    if (!isValidFileKey(key)) throw new Error(`invalid file key: ${key}`);
    const path = resolve(this.root, key);
    // Keys are validated above; this is the belt to those braces against path traversal.
    if (!path.startsWith(this.root + sep)) throw new Error(`file key escapes the store: ${key}`);
    return path;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const path = this.pathOf(key);
    const directory = dirname(path);
    const needsSidecar = sniffedImageType(data) !== contentType;
    const write = () =>
      needsSidecar
        ? Promise.all([
            writeFile(path, data),
            writeFile(`${path}.meta.json`, JSON.stringify({ contentType })),
          ])
        : writeFile(path, data);
    if (!this.madeDirectories.has(directory)) {
      await mkdir(directory, { recursive: true });
      this.madeDirectories.add(directory);
    }
    try {
      await write();
    } catch (error) {
      // The directory went away since (removed by hand, a restored backup): make it again, once.
      if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
      await mkdir(directory, { recursive: true });
      await write();
    }
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const path = this.pathOf(key);
    const [data, meta] = await Promise.all([
      readFile(path).catch(() => undefined),
      readFile(`${path}.meta.json`, "utf8").catch(() => undefined),
    ]);
    if (!data) return undefined;
    const contentType = meta
      ? (JSON.parse(meta) as { contentType: string }).contentType
      : sniffedImageType(data);
    // A file without a sidecar whose bytes name no type was never completely written.
    return contentType ? { data, contentType } : undefined;
  }

  async delete(key: string): Promise<void> {
    const path = this.pathOf(key);
    await Promise.all([rm(path, { force: true }), rm(`${path}.meta.json`, { force: true })]);
  }

  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }
}

export function localFileStoreFor(dataDir: string): LocalFileStore {
  return new LocalFileStore(join(dataDir, "files"));
}
