import { COST_DECIMALS, type Feature, formatMicros } from "@prism/contract";

export const UNIT_TEXT: Record<Feature["billing"]["unit"], string> = {
  call: "per call",
  image: "per image",
  "audio-minute": "per started minute of audio (at least one)",
};

export function usd(micros: number): string {
  return formatMicros(BigInt(micros), COST_DECIMALS);
}

export function priceText(feature: Feature): string {
  const billing = feature.billing;
  const base = `${usd(billing.defaultPriceMicros)} ${UNIT_TEXT[billing.unit]}`;
  return "identityPriceMicros" in billing
    ? `${base}; ${usd(billing.identityPriceMicros)} with an AI Clone`
    : base;
}

export const TAGS = {
  generation: { name: "Image generation", description: "Images from text prompts." },
  editing: { name: "Image editing", description: "Changes to an image you send." },
  clones: { name: "AI Clones", description: "Training a person's likeness and painting it into images." },
  speech: { name: "Speech", description: "Speech recognition." },
  files: {
    name: "Files",
    description: "Downloading the stored inputs and results that answers link to.",
  },
  usage: {
    name: "Usage",
    description: "Following one call, and the project's usage and spend over a range of days.",
  },
} as const;

/** The feature's family, from what the catalog says about it. */
export function tagOf(feature: Feature): string {
  if (feature.endpoint.startsWith("/v1/speech/")) return TAGS.speech.name;
  if (feature.asynchronous || feature.headers.some((header) => header.required)) return TAGS.clones.name;
  if (feature.inputs.files.length === 0) return TAGS.generation.name;
  return TAGS.editing.name;
}
