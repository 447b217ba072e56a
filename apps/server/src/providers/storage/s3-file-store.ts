import type { S3Client } from "@aws-sdk/client-s3";
import { type FileStore, isValidFileKey, type StoredObject } from "./file-store";

export interface S3Settings {
  bucket: string;
  region: string;
  /** For S3-compatible services (MinIO, R2, a local test server); unset for AWS. */
  endpoint: string | undefined;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
  /** Path-style addressing, which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** A prefix for every key, to share a bucket. */
  prefix: string;
}

/** Files in an S3-compatible bucket, for deployments with more than one server process. */
type S3Sdk = typeof import("@aws-sdk/client-s3");

export class S3FileStore implements FileStore {
  private connection: Promise<{ sdk: S3Sdk; client: S3Client }> | undefined;
  private client: S3Client | undefined;

  constructor(private readonly settings: S3Settings) {}

  /**
   * The AWS SDK is loaded on first use rather than with the server, which starts without it unless
   * a bucket is configured and used (issue 16: start-up time).
   */
  private connect(): Promise<{ sdk: S3Sdk; client: S3Client }> {
    this.connection ??= import("@aws-sdk/client-s3").then((sdk) => {
      const { settings } = this;
      this.client = new sdk.S3Client({
        region: settings.region,
        forcePathStyle: settings.forcePathStyle,
        ...(settings.endpoint ? { endpoint: settings.endpoint } : {}),
        ...(settings.accessKeyId && settings.secretAccessKey
          ? { credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } }
          : {}),
      });
      return { sdk, client: this.client };
    });
    return this.connection;
  }

  private objectKey(key: string): string {
    if (!isValidFileKey(key)) throw new Error(`invalid file key: ${key}`);
    return `${this.settings.prefix}${key}`;
  }

  async put(key: string, data: Buffer, contentType: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.PutObjectCommand({
        Bucket: this.settings.bucket,
        Key: this.objectKey(key),
        Body: data,
        ContentType: contentType,
      }),
    );
  }

  async get(key: string): Promise<StoredObject | undefined> {
    const { sdk, client } = await this.connect();
    try {
      const answer = await client.send(
        new sdk.GetObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
      );
      const bytes = await answer.Body?.transformToByteArray();
      if (!bytes) return undefined;
      return { data: Buffer.from(bytes), contentType: answer.ContentType ?? "application/octet-stream" };
    } catch (error) {
      if (error instanceof sdk.NoSuchKey || (error as { name?: string }).name === "NoSuchKey")
        return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(
      new sdk.DeleteObjectCommand({ Bucket: this.settings.bucket, Key: this.objectKey(key) }),
    );
  }

  /** The bucket exists and these credentials reach it (HeadBucket needs no object to exist). */
  async check(): Promise<void> {
    const { sdk, client } = await this.connect();
    await client.send(new sdk.HeadBucketCommand({ Bucket: this.settings.bucket }));
  }

  close(): void {
    this.client?.destroy();
  }
}
