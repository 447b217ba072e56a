import { readFileSync } from "node:fs";
import { FEATURES, type Feature, type FeatureBilling, usdToMicros } from "@prism/contract";
import { z } from "zod";

const priceFileSchema = z.record(
  z.string(),
  z.object({
    /** Dollars per unit. */
    price: z.number().finite().min(0),
    priceIdentity: z.number().finite().min(0).optional(),
  }),
);

export interface FeaturePrice {
  unitMicros: bigint;
  identityUnitMicros: bigint | undefined;
}

/**
 * Prices per feature: the catalog's defaults, overridden by an optional JSON file
 * (`{"image-background-removal": {"price": 0.02}}`, dollars per unit) named by PRICES_FILE.
 */
export class PriceBook {
  private readonly prices = new Map<string, FeaturePrice>();

  constructor(overrides: z.infer<typeof priceFileSchema> = {}) {
    for (const feature of FEATURES) {
      const billing: FeatureBilling = feature.billing;
      const override = overrides[feature.id];
      this.prices.set(feature.id, {
        unitMicros: override ? usdToMicros(override.price) : BigInt(billing.defaultPriceMicros),
        identityUnitMicros:
          override?.priceIdentity !== undefined
            ? usdToMicros(override.priceIdentity)
            : billing.identityPriceMicros !== undefined
              ? BigInt(billing.identityPriceMicros)
              : undefined,
      });
    }
  }

  static fromFile(path: string | undefined): PriceBook {
    if (!path) return new PriceBook();
    const parsed = priceFileSchema.safeParse(JSON.parse(readFileSync(path, "utf8")));
    if (!parsed.success)
      throw new Error(`PRICES_FILE ${path}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
    const unknown = Object.keys(parsed.data).filter((id) => !FEATURES.some((feature) => feature.id === id));
    if (unknown.length > 0) throw new Error(`PRICES_FILE ${path}: unknown features ${unknown.join(", ")}`);
    return new PriceBook(parsed.data);
  }

  of(feature: Feature): FeaturePrice {
    const price = this.prices.get(feature.id);
    if (!price) throw new Error(`no price for ${feature.id}`);
    return price;
  }
}
