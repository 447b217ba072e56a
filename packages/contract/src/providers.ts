import type { FeatureId } from "./catalog";

import { PROVIDER_NAMES, type ProviderName } from "./provider-names";

export { PROVIDER_NAMES, type ProviderName };

/** The features a provider that needs its own models (all but the CPU engine) serves by default. */
export interface ProviderSetup {
  provider: Exclude<ProviderName, "builtin">;
  /** The variable that switches it on, as the operator sets it. */
  variable: string;
  /** The platform's name as people know it. */
  label: string;
  features: readonly FeatureId[];
}

const EVERY_FEATURE: readonly FeatureId[] = [
  "image-generation",
  "pegasus-generation",
  "pegasus-training",
  "generative-fill",
  "object-removal",
  "text-removal",
  "image-extension",
  "image-background-removal",
  "image-upscaling",
  "speech-to-text",
  "face-swapping",
  "reimagine",
  "identity-inpainting",
];

/**
 * What lights each feature: the providers that serve it with their shipped model maps, and the
 * variable that turns each on. The console's "Needs a model server" callout and docs/providers.md
 * name them; the server's default model maps are checked against this table by a test.
 */
export const PROVIDER_SETUPS: readonly ProviderSetup[] = [
  { provider: "replicate", variable: "REPLICATE_API_TOKEN", label: "Replicate", features: EVERY_FEATURE },
  { provider: "fal", variable: "FAL_KEY", label: "fal", features: EVERY_FEATURE },
  {
    provider: "stability",
    variable: "STABILITY_API_KEY",
    label: "Stability AI",
    features: [
      "image-generation",
      "pegasus-generation",
      "generative-fill",
      "object-removal",
      "image-extension",
      "image-background-removal",
      "image-upscaling",
      "reimagine",
    ],
  },
  {
    provider: "comfyui",
    variable: "COMFYUI_URLS",
    label: "ComfyUI",
    features: [
      "image-generation",
      "pegasus-generation",
      "generative-fill",
      "object-removal",
      "image-extension",
      "image-upscaling",
      "reimagine",
    ],
  },
  { provider: "http", variable: "MODEL_SERVER_URL", label: "your own model server", features: EVERY_FEATURE },
  {
    provider: "openai",
    variable: "OPENAI_API_KEY",
    label: "OpenAI",
    features: ["image-generation", "generative-fill", "speech-to-text"],
  },
];

/** The variables, any one of which turns a feature on. */
export function variablesThatLight(featureId: FeatureId): string[] {
  return PROVIDER_SETUPS.filter((setup) => setup.features.includes(featureId)).map((setup) => setup.variable);
}

/** The variables in prose: "A, B or C". */
function listOfVariables(variables: readonly string[]): string {
  if (variables.length <= 1) return variables.join("");
  return `${variables.slice(0, -1).join(", ")} or ${variables.at(-1)}`;
}

/**
 * The line that tells whoever runs the deployment how to turn a dark feature on, e.g. "Set
 * REPLICATE_API_TOKEN, FAL_KEY or MODEL_SERVER_URL on the server to turn it on."
 */
export function featureLightingText(featureId: FeatureId): string {
  return `Set ${listOfVariables(variablesThatLight(featureId))} on the server to turn it on.`;
}

/** What the playground's notice says before the variables that would light its feature. */
export const LIGHTING_VARIABLES_LEAD = "Any one of these server variables does it:";
