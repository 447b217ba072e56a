import {
  FEATURE_NEEDS_MODEL_SERVER,
  FEATURES,
  MODEL_SERVERS_DOCS_PATH,
  NEEDS_MODEL_SERVER_BADGE,
  UNAVAILABLE_BADGE,
} from "@prism/contract";
import type { OpenApiDocument } from "./types";

/** Whether a feature can run on this deployment, as the console's feature status says. */
export interface FeatureAvailability {
  available: boolean;
  /** No provider serves it here: it needs a model server. */
  needsModelServer: boolean;
  reason: string | null;
}

/**
 * The document with each feature marked as this deployment runs it right now (`x-prism-availability`),
 * so the reference can badge what needs a model server. The rest of the document does not change.
 */
export function withAvailability(
  document: OpenApiDocument,
  availability: ReadonlyMap<string, FeatureAvailability>,
): OpenApiDocument {
  const paths: OpenApiDocument["paths"] = { ...document.paths };
  for (const feature of FEATURES) {
    const operation = paths[feature.endpoint]?.post;
    const status = availability.get(feature.id);
    if (!operation || !status) continue;
    const reason = status.needsModelServer ? FEATURE_NEEDS_MODEL_SERVER : status.reason;
    const badge = status.needsModelServer ? NEEDS_MODEL_SERVER_BADGE : UNAVAILABLE_BADGE;
    const guide = status.needsModelServer ? ` See [Model servers](${MODEL_SERVERS_DOCS_PATH}).` : "";
    paths[feature.endpoint] = {
      post: {
        ...operation,
        "x-prism-availability": { ...status, reason, ...(status.available ? {} : { badge }) },
        // What the reference page shows: Scalar draws `x-badges` beside the operation's title, and the
        // reason opens its description.
        ...(status.available
          ? {}
          : {
              "x-badges": [{ name: badge, position: "before", color: "var(--scalar-color-orange)" }],
              description: `**${badge}.** ${reason ?? ""}${guide}\n\n${String(operation.description ?? "")}`,
            }),
      },
    };
  }
  return { ...document, paths };
}
