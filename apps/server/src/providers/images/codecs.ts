/**
 * sharp (libvips) and file-type load on first use rather than at start-up: together they are a tenth
 * of the server's start-up (issue 16), and most requests never touch an image. The server warms them
 * right after it starts listening (see main.ts), so the first feature call rarely waits for them.
 */

let sharpModule: Promise<typeof import("sharp")["default"]> | undefined;
let fileTypeModule: Promise<typeof import("file-type")> | undefined;

export function loadSharp(): Promise<typeof import("sharp")["default"]> {
  sharpModule ??= import("sharp").then((module) => module.default);
  return sharpModule;
}

export function loadFileType(): Promise<typeof import("file-type")> {
  fileTypeModule ??= import("file-type");
  return fileTypeModule;
}

/** Loads both now, in the background (after start-up); a failure shows again at first real use. */
export function warmImageCodecs(): void {
  void loadSharp().catch(() => undefined);
  void loadFileType().catch(() => undefined);
}
