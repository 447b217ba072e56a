/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** "production" hides the non-production controls (see src/lib/env.ts). */
  readonly VITE_APP_ENV?: "development" | "test" | "production";
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
