import { type CardNetwork, cardBrandLabel, cardNetworkOfBrand } from "@prism/contract";
import type { ReactNode } from "react";

/** The networks with their own logo; every other brand gets the generic card. */
export type CardBrand =
  | Extract<CardNetwork, "visa" | "mastercard" | "american express" | "discover">
  | "generic";

// Simplified marks drawn on a 48×32 card face; small enough to inline, so no image requests.
const LOGOS: Record<CardBrand, ReactNode> = {
  visa: (
    <>
      <rect width="48" height="32" rx="4" fill="#fff" />
      <text
        x="24"
        y="21.5"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="14"
        fontStyle="italic"
        fontWeight="900"
        fill="#1a1f71"
        letterSpacing="0.5"
      >
        VISA
      </text>
      <rect x="6" y="25" width="36" height="2" rx="1" fill="#f7b600" />
    </>
  ),
  mastercard: (
    <>
      <rect width="48" height="32" rx="4" fill="#fff" />
      <circle cx="19" cy="16" r="9" fill="#eb001b" />
      <circle cx="29" cy="16" r="9" fill="#f79e1b" />
      <path d="M24 8.4a9 9 0 0 1 0 15.2a9 9 0 0 1 0-15.2z" fill="#ff5f00" />
    </>
  ),
  "american express": (
    <>
      <rect width="48" height="32" rx="4" fill="#2e77bc" />
      <text
        x="24"
        y="15"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="8"
        fontWeight="800"
        fill="#fff"
        letterSpacing="0.4"
      >
        AMERICAN
      </text>
      <text
        x="24"
        y="24"
        textAnchor="middle"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="8"
        fontWeight="800"
        fill="#fff"
        letterSpacing="0.4"
      >
        EXPRESS
      </text>
    </>
  ),
  discover: (
    <>
      <rect width="48" height="32" rx="4" fill="#fff" />
      <text
        x="5"
        y="19"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="7.2"
        fontWeight="800"
        fill="#231f20"
        letterSpacing="0.2"
      >
        DISC
      </text>
      <circle cx="27.6" cy="16.4" r="3.7" fill="#f48120" />
      <text
        x="31.6"
        y="19"
        fontFamily="Arial, Helvetica, sans-serif"
        fontSize="7.2"
        fontWeight="800"
        fill="#231f20"
        letterSpacing="0.2"
      >
        VER
      </text>
      <path d="M30 32h14a4 4 0 0 0 4-4v-9c-4 6-10 11-18 13z" fill="#f48120" />
    </>
  ),
  generic: (
    <>
      <rect width="48" height="32" rx="4" fill="#eef0f4" />
      <rect y="7" width="48" height="5" fill="#9aa1ad" />
      <rect x="6" y="19" width="16" height="3" rx="1.5" fill="#b9bfc9" />
      <rect x="6" y="24" width="10" height="2.5" rx="1.25" fill="#c9ced6" />
    </>
  ),
};

function hasLogo(network: CardNetwork): network is Exclude<CardBrand, "generic"> {
  return network !== "unknown" && Object.hasOwn(LOGOS, network);
}

/** The logo of a provider's brand text ("Visa", "amex", "American Express", ...), by the contract's names. */
export function normalizeCardBrand(brand: string | null | undefined): CardBrand {
  const network = cardNetworkOfBrand(brand);
  return hasLogo(network) ? network : "generic";
}

/**
 * A card brand's logo (visa, mastercard, american express, discover; a generic card otherwise),
 * labelled with the brand's name even where the generic card stands in for it.
 */
export function CardBrandLogo({ brand, width = 48 }: { brand: string | null | undefined; width?: number }) {
  const normalized = normalizeCardBrand(brand);
  return (
    <svg
      viewBox="0 0 48 32"
      width={width}
      height={(width * 2) / 3}
      role="img"
      aria-label={cardBrandLabel(brand)}
      data-brand={normalized}
      style={{ flexShrink: 0, borderRadius: 4, boxShadow: "0 0 0 1px var(--mantine-color-gray-3)" }}
    >
      {LOGOS[normalized]}
    </svg>
  );
}
