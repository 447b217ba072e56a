/**
 * The closed list of failures a caller must map to a response. `no-face` and `invalid-input` are the
 * caller's fault (422), `unavailable` means the feature cannot run on this machine (503), `timeout`
 * and `aborted` end a job that took too long or was cancelled, `internal` is a bug or a crashed worker.
 */
export const ENGINE_ERROR_CODES = [
  "invalid-input",
  "no-face",
  "unavailable",
  "timeout",
  "aborted",
  "internal",
] as const;

export type EngineErrorCode = (typeof ENGINE_ERROR_CODES)[number];

export class EngineError extends Error {
  readonly code: EngineErrorCode;

  constructor(code: EngineErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "EngineError";
    this.code = code;
  }
}

export function isEngineErrorCode(value: unknown): value is EngineErrorCode {
  return typeof value === "string" && (ENGINE_ERROR_CODES as readonly string[]).includes(value);
}
