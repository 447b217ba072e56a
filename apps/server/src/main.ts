import { existsSync } from "node:fs";
import { PRODUCT_NAME } from "@prism/contract";
import closeWithGrace from "close-with-grace";
import { buildApp } from "./app";
import { createDependencies } from "./app-dependencies";
import { ConfigError, loadConfig } from "./config";
import { openDatabase, pgliteDirFor } from "./db/client";
import { warmImageCodecs } from "./providers/images/codecs";

/** Beyond the drain's own deadline: the unwinding of stopped calls and closing the database. */
const SHUTDOWN_SLACK_MS = 10_000;

async function main(): Promise<void> {
  if (existsSync(".env")) process.loadEnvFile(".env");
  const config = loadConfig();
  const database = openDatabase({
    databaseUrl: config.databaseUrl,
    pgliteDir: config.databaseUrl ? undefined : pgliteDirFor(config.dataDir),
    onIdleClientError: (error) =>
      console.error(JSON.stringify({ level: 40, msg: "idle database connection lost", err: error.message })),
  });
  await database.migrate();

  const dependencies = createDependencies(config, database);
  // A ComfyUI without a node or model its workflows need stops the start here, naming it.
  await dependencies.registry.verify();
  const app = await buildApp(dependencies);

  // On SIGTERM/SIGINT the app drains (new feature calls refused, running ones given until the
  // deadline, the rest stopped and refunded, job leases handed back), then closes. A second signal,
  // or the deadline plus some slack, forces the exit.
  closeWithGrace({ delay: config.shutdownTimeoutMs + SHUTDOWN_SLACK_MS }, async ({ signal, err }) => {
    if (err) app.log.error({ err }, "shutting down after a fatal error");
    else app.log.info({ signal }, "shutting down");
    await app.shutdown();
  });

  await app.listen({ port: config.port, host: config.host });
  // The image codecs load once the server answers, so they are not part of its start-up.
  warmImageCodecs();
  app.log.info(
    `${PRODUCT_NAME} console (${config.appEnv}, ${database.kind}) ready on http://localhost:${config.port}`,
  );
}

main().catch((error: unknown) => {
  if (error instanceof ConfigError) {
    console.error(error.message);
  } else {
    console.error(error);
  }
  process.exit(1);
});
