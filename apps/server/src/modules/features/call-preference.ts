import type { IncomingHttpHeaders } from "node:http";
import { PREFER_HEADER, PREFER_WAIT_MAX_SECONDS } from "@prism/contract";

/**
 * How the caller wants the answer (RFC 7240 `Prefer`): `sync` waits for the call to end, as every call
 * did before asynchronous calls existed; `async` answers 202 at once (`respond-async`), or after up to
 * `waitSeconds` when the call has not ended by then (`wait=N`, with or without `respond-async`).
 */
export type CallPreference = { mode: "sync" } | { mode: "async"; waitSeconds: number };

/**
 * Reads `Prefer` (one or several headers, comma-separated preferences, parameters after `;`). A
 * preference the server does not know is ignored, as RFC 7240 asks; `wait` beyond
 * PREFER_WAIT_MAX_SECONDS is cut to it.
 */
export function preferenceOf(headers: IncomingHttpHeaders): CallPreference {
  const raw = headers[PREFER_HEADER];
  const values = (Array.isArray(raw) ? raw : raw === undefined ? [] : [raw]).flatMap((value) =>
    value.split(","),
  );
  let respondAsync = false;
  let waitSeconds: number | undefined;
  for (const value of values) {
    const [token = ""] = value.split(";");
    const [name = "", argument] = token.split("=").map((part) => part.trim());
    const lower = name.toLowerCase();
    if (lower === "respond-async") respondAsync = true;
    else if (lower === "wait" && argument !== undefined && /^\d+$/.test(argument.replace(/^"|"$/g, ""))) {
      waitSeconds = Math.min(Number(argument.replace(/^"|"$/g, "")), PREFER_WAIT_MAX_SECONDS);
    }
  }
  if (waitSeconds !== undefined) return { mode: "async", waitSeconds };
  return respondAsync ? { mode: "async", waitSeconds: 0 } : { mode: "sync" };
}
