import { FEATURE_NEEDS_MODEL_SERVER, FEATURES, type Feature } from "@prism/contract";
import type { FeatureProvider, ProviderAvailability } from "./feature-provider";

export interface ResolvedProvider {
  provider: FeatureProvider | undefined;
  availability: ProviderAvailability;
}

/**
 * Maps each feature to the provider that serves it: an explicit choice from configuration, else the
 * first configured provider (in the given order) that supports it. A feature nobody serves is
 * unavailable, with a reason the console shows.
 */
export class ProviderRegistry {
  constructor(
    private readonly providers: FeatureProvider[],
    private readonly overrides: Record<string, FeatureProvider["name"]> = {},
  ) {}

  /** Every configured provider (the call queue keeps a pool of slots for each). */
  get all(): readonly FeatureProvider[] {
    return this.providers;
  }

  providerFor(feature: Feature): FeatureProvider | undefined {
    const chosen = this.overrides[feature.id];
    if (chosen)
      return this.providers.find((provider) => provider.name === chosen && provider.supports(feature));
    return this.providers.find((provider) => provider.supports(feature));
  }

  async resolve(feature: Feature): Promise<ResolvedProvider> {
    const provider = this.providerFor(feature);
    if (!provider) {
      return {
        provider: undefined,
        availability: {
          available: false,
          reason: FEATURE_NEEDS_MODEL_SERVER,
        },
      };
    }
    try {
      return { provider, availability: await provider.availability(feature) };
    } catch {
      return {
        provider,
        availability: { available: false, reason: "The model provider could not be reached." },
      };
    }
  }

  async statusOfAll(): Promise<Map<string, ResolvedProvider>> {
    const entries = await Promise.all(
      FEATURES.map(async (feature) => [feature.id, await this.resolve(feature)] as const),
    );
    return new Map(entries);
  }

  /** Runs every provider's start-up check; the server does not start when one fails. */
  async verify(): Promise<void> {
    for (const provider of this.providers) await provider.verify?.();
  }

  async close(): Promise<void> {
    await Promise.all(this.providers.map((provider) => provider.close?.()));
  }
}
