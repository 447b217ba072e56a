import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { afterAll, beforeEach } from "vitest";
import { describeOpenBrowsers, FAILURE_REPORTS } from "./browser";
import { type ConsoleServer, startConsoleServer } from "./console-server";
import { MODEL_SERVER_FEATURES, type ModelServer, startModelServer } from "./model-server";

/**
 * The console server and local model server of the journey file running in this worker. Each file has
 * its own pair, so files run in parallel without sharing a database, a `fail-next` of the model server
 * or its record of the last call. Started on first use: a file that brings its own deployment
 * (model-server-missing) starts none.
 */
export interface JourneyServers {
  baseUrl: string;
  /** The local model server (model-server.ts) serving the features the builtin engine does not. */
  modelServerUrl: string;
}

let starting: Promise<{ consoleServer: ConsoleServer; model: ModelServer }> | undefined;

async function start() {
  const model = await startModelServer();
  try {
    const consoleServer = await startConsoleServer({
      MODEL_SERVER_URL: model.url,
      MODEL_SERVER_FEATURES: MODEL_SERVER_FEATURES.join(","),
    });
    return { consoleServer, model };
  } catch (error) {
    await model.close();
    throw error;
  }
}

export async function journeyServers(): Promise<JourneyServers> {
  starting ??= start();
  const { consoleServer, model } = await starting;
  return { baseUrl: consoleServer.baseUrl, modelServerUrl: model.url };
}

// A setup file of the e2e project (vitest.e2e.config.ts): this hook closes the file's servers after its
// last test.
afterAll(async () => {
  if (!starting) return;
  const servers = await starting.catch(() => undefined);
  starting = undefined;
  await servers?.consoleServer.close();
  await servers?.model.close();
}, 60_000);

// A failed journey prints what its browsers show and what their pages went through (browser.ts).
beforeEach(({ task, onTestFailed }) => {
  onTestFailed(async () => {
    const report = await describeOpenBrowsers();
    if (!report) return;
    // The whole of Playwright's call log: its last lines say what held an action back (an element that
    // "intercepts pointer events", one that is "not stable"), which the first lines do not.
    const error = task.result?.errors?.[0]?.message?.split("\n").slice(0, 40).join("\n");
    const text = `${task.fullName}: ${error ?? "failed"}\nthe browsers when the test failed:\n${report}\n`;
    console.error(text);
    mkdirSync(dirname(FAILURE_REPORTS), { recursive: true });
    appendFileSync(FAILURE_REPORTS, `${text}\n`);
  });
});
