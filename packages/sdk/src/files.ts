import type { FileInput } from "./types.js";

/**
 * A file input as a Blob for FormData. A string is a path, read with node:fs only when one is given
 * (the import's name is a variable, so bundlers leave it out of browser builds).
 */
export async function toBlob(input: FileInput): Promise<{ blob: Blob; filename: string }> {
  if (typeof input === "string") {
    const fsModule = "node:fs/promises";
    const { readFile } = (await import(/* @vite-ignore */ fsModule)) as {
      readFile(path: string): Promise<Uint8Array>;
    };
    const bytes = await readFile(input);
    const filename = input.split(/[\\/]/).pop() || "file";
    return { blob: new Blob([bytesOf(bytes)]), filename };
  }
  if (input instanceof Blob) return { blob: input, filename: fileNameOf(input) ?? "file" };
  if (input instanceof Uint8Array || input instanceof ArrayBuffer) {
    return { blob: new Blob([bytesOf(input)]), filename: "file" };
  }
  const blob =
    input.data instanceof Blob
      ? input.data
      : new Blob([bytesOf(input.data)], input.contentType ? { type: input.contentType } : {});
  return { blob, filename: input.filename ?? fileNameOf(blob) ?? "file" };
}

/** A copy of the bytes as an ArrayBuffer-backed view, which Blob takes in every runtime. */
function bytesOf(data: Uint8Array | ArrayBuffer): Uint8Array<ArrayBuffer> {
  const view = data instanceof Uint8Array ? data : new Uint8Array(data);
  const copy = new Uint8Array(view.byteLength);
  copy.set(view);
  return copy;
}

function fileNameOf(blob: Blob): string | undefined {
  const name = (blob as { name?: unknown }).name;
  return typeof name === "string" && name.length > 0 ? name : undefined;
}
