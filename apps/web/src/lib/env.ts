import { PRODUCT_NAME, type PublicConfig } from "@prism/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";
import { api } from "./api-client";

export const PUBLIC_CONFIG_QUERY_KEY = ["system", "public-config"] as const;

// The last answer, for code outside React (and for the first render after it arrived).
let loadedConfig: PublicConfig | null = null;

/**
 * The deployment's public settings (users/public-config): environment, configured sign-in providers
 * and bot check. Fetched once at start-up and kept for the life of the page; they change only with a
 * server restart.
 */
export const publicConfigQueryOptions = queryOptions({
  queryKey: PUBLIC_CONFIG_QUERY_KEY,
  queryFn: async ({ signal }) => {
    const config = await api.system.publicConfig({}, { signal });
    loadedConfig = config;
    return config;
  },
  staleTime: Number.POSITIVE_INFINITY,
  gcTime: Number.POSITIVE_INFINITY,
  refetchOnWindowFocus: false,
});

/** The public config, undefined while it loads (or when it could not be read). */
export function usePublicConfig(): PublicConfig | undefined {
  return useQuery(publicConfigQueryOptions).data;
}

export function useAppEnv(): PublicConfig["appEnv"] | undefined {
  return usePublicConfig()?.appEnv;
}

/**
 * Whether the console runs against the production deployment, which hides the spec's non-production
 * controls (identity inpainting menu item, fast mode, debug sliders). False until the config arrives:
 * the server refuses those features in production anyway, so the brief glimpse is harmless.
 */
export function useIsProduction(): boolean {
  return useAppEnv() === "production";
}

/** The synchronous reading of {@link useIsProduction}, for code that is not a component. */
export function isProductionEnv(): boolean {
  return loadedConfig?.appEnv === "production";
}

/**
 * The product's name as the deployment states it (public config), for page titles and the brand; the
 * contract's name until the config has arrived. Synchronous, so widgets rendered without a query
 * client (tests of shared components) can call it too.
 */
export function productName(): string {
  return loadedConfig?.productName ?? PRODUCT_NAME;
}

/** A page's browser-tab title: "Payments · Prism Console". */
export function documentTitle(page: string): string {
  return `${page} · ${productName()} Console`;
}
