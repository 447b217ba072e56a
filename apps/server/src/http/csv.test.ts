import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { describe, expect, it } from "vitest";
import { CSV_CHUNK_BYTES, chunkedWrites } from "./csv";

/** The chunks a consumer in flowing mode gets (as a reply piped to a socket or a compressor does). */
async function chunksOf(lines: string[]): Promise<Buffer[]> {
  const chunks: Buffer[] = [];
  const chunked = Readable.from(lines).pipe(chunkedWrites());
  chunked.on("data", (chunk: Buffer) => chunks.push(chunk));
  await finished(chunked);
  return chunks;
}

describe("chunked CSV writes", () => {
  it("passes the same bytes on in chunks of at least 64 KiB, the last one shorter", async () => {
    const rows = Array.from({ length: 5_000 }, (_, index) => `${index},café €${"x".repeat(index % 200)}\n`);
    const chunks = await chunksOf(rows);
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
    expect(await chunksOf([])).toEqual([]);
  });
});
