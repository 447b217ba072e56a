import { FEATURES, type HistoryRequestRecord } from "@prism/contract";
import type { FastifyInstance } from "fastify";
import { withAbsoluteFileUrls } from "../features/feature-requests.store";

const FEATURE_ENDPOINTS: ReadonlySet<string> = new Set(FEATURES.map((feature) => feature.endpoint));

function isFeatureAnswer(payload: unknown): payload is { request: HistoryRequestRecord } {
  if (typeof payload !== "object" || payload === null || !("request" in payload)) return false;
  const request = (payload as { request: unknown }).request;
  return (
    typeof request === "object" && request !== null && "request_data" in request && "response_data" in request
  );
}

/**
 * With PUBLIC_URL set, feature call answers carry absolute file URLs (`https://console.example/v1/files/…`)
 * that an API client can fetch as they are. Applied as the answer is serialized, so every feature
 * endpoint gets it however its handler builds the record; the console's own history calls keep
 * paths, which the browser resolves against whatever origin serves it.
 */
export function registerAbsoluteFileUrls(app: FastifyInstance, publicUrl: string | undefined): void {
  if (!publicUrl) return;
  app.addHook("preSerialization", async (request, _reply, payload: unknown) => {
    if (request.method !== "POST" || !FEATURE_ENDPOINTS.has(request.routeOptions.url ?? "")) return payload;
    if (!isFeatureAnswer(payload)) return payload;
    return { ...payload, request: withAbsoluteFileUrls(payload.request, publicUrl) };
  });
}
