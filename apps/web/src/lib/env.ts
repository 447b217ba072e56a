/**
 * Whether the console runs against the production deployment, which hides the spec's non-production
 * controls (identity inpainting menu item, fast mode, debug sliders).
 *
 * Production-ness is a server setting (APP_ENV); until the server exposes it to the client, the build
 * carries it as VITE_APP_ENV (set `VITE_APP_ENV=production` when building the production bundle).
 * Anything else counts as non-production.
 */
export function isProductionEnv(): boolean {
  return import.meta.env.VITE_APP_ENV === "production";
}
