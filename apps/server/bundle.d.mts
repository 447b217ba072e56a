/** Bundles src/main.ts into `outfile`, one folder below the server package (bundle.mjs). */
export function bundleServer(outfile: string): Promise<void>;
