import type { AppConfig } from "./config";
import type { DatabaseHandle } from "./db/client";

/**
 * Everything a module needs from the outside world, built once at start-up (or per test) and passed
 * down explicitly, so tests swap real parts for local ones without module-level singletons.
 */
export interface AppDependencies {
  config: AppConfig;
  database: DatabaseHandle;
}
