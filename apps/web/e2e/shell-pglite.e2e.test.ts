import { runOnEmbeddedDatabase } from "./console-server";
import "./shell.e2e.test";

// The shell journey again, on PGlite under the production build: the embedded database `npm start` runs on.
// Vitest includes this file only when the run's journeys are on PostgreSQL (vitest.e2e.config.ts).
runOnEmbeddedDatabase();
