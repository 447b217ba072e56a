import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { CSV_CHUNK_BYTES, chunkedWrites } from "./csv";

describe("chunked CSV writes", () => {
  it("passes the same bytes on in chunks of at least 64 KiB, the last one shorter", async () => {
    const rows = Array.from({ length: 5_000 }, (_, index) => `${index},café €${"x".repeat(index % 200)}\n`);
    const chunks: Buffer[] = [];
    await pipeline(Readable.from(rows), chunkedWrites(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
    const expected = Buffer.from(rows.join(""), "utf8");
    expect(Buffer.concat(chunks).equals(expected)).toBe(true);
    expect(chunks.length).toBeGreaterThan(1);
    expect(chunks.length).toBeLessThanOrEqual(Math.ceil(expected.length / CSV_CHUNK_BYTES));
    for (const chunk of chunks.slice(0, -1)) {
      expect(chunk.length).toBeGreaterThanOrEqual(CSV_CHUNK_BYTES);
      expect(chunk.length).toBeLessThan(CSV_CHUNK_BYTES + 300);
    }
  });

  it("writes nothing for an empty stream", async () => {
    const chunks: Buffer[] = [];
    await pipeline(Readable.from([]), chunkedWrites(), async (source: AsyncIterable<Buffer>) => {
      for await (const chunk of source) chunks.push(chunk);
    });
    expect(chunks).toEqual([]);
  });
});
