// Its own file so that the languages (which the catalog imports) can name providers without
// importing the providers' module, which imports the catalog.

/** Every kind of inference provider, as `FEATURE_PROVIDERS` and the feature status name them. */
export const PROVIDER_NAMES = [
  "builtin",
  "http",
  "openai",
  "replicate",
  "fal",
  "stability",
  "comfyui",
] as const;
export type ProviderName = (typeof PROVIDER_NAMES)[number];
