import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import {
  API_KEY_PREFIX,
  calls,
  FEATURES,
  IDEMPOTENCY_WAIT_SECONDS,
  NEEDS_MODEL_SERVER_BADGE,
  PREFER_WAIT_MAX_SECONDS,
  PRODUCT_NAME,
  PROVIDER_SETUPS,
  SDK_PACKAGE_NAME,
} from "@prism/contract";
import { SERVER_ROOT } from "../../paths";
import { priceText } from "./tags";

/**
 * The document's long prose, written as Markdown files in `prose/` (read from the source tree, as the
 * reference page's script is, so the production bundle finds them too). `{{name}}` stands for a value
 * from the contract; a placeholder without a value is an error, so a renamed one cannot ship as text.
 */

const PROSE_DIR = resolve(SERVER_ROOT, "src/modules/openapi/prose");

export function renderProse(file: string, values: Record<string, string | number>): string {
  const template = readFileSync(resolve(PROSE_DIR, file), "utf8").trimEnd();
  return template.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`prose/${file}: no value for {{${name}}}`);
    return String(value);
  });
}

/** The introduction: authentication, calls, pricing, limits, retries, AI Clones and usage. */
export function infoDescription(): string {
  return renderProse("introduction.md", {
    product: PRODUCT_NAME,
    keyPrefix: API_KEY_PREFIX,
    sdkPackageName: SDK_PACKAGE_NAME,
    priceRows: FEATURES.map(
      (feature) => `| ${feature.name} | \`POST ${feature.endpoint}\` | ${priceText(feature)} |`,
    ).join("\n"),
    idempotencyWaitSeconds: IDEMPOTENCY_WAIT_SECONDS,
    preferWaitMaxSeconds: PREFER_WAIT_MAX_SECONDS,
    trainedIdentitiesPath: calls.playground.getTrainedIdentities.path,
  });
}

/** The features the builtin CPU engine cannot run: they need a model server (or an OpenAI-compatible API). */
export function modelServerGuide(): string {
  return renderProse("model-servers.md", {
    product: PRODUCT_NAME,
    needsModelServerBadge: NEEDS_MODEL_SERVER_BADGE,
    platformRows: PROVIDER_SETUPS.filter((setup) => setup.provider !== "http" && setup.provider !== "openai")
      .map(
        (setup) =>
          `| \`${setup.variable}\` | ${setup.label} | ${setup.features.length === FEATURES.length ? "all" : setup.features.map((id) => `\`${id}\``).join(", ")} |`,
      )
      .join("\n"),
    featureIdRows: FEATURES.map((feature) => `| ${feature.name} | \`${feature.id}\` |`).join("\n"),
  });
}
