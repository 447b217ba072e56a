import { createRequire } from "node:module";
import { dirname } from "node:path";

const require = createRequire(import.meta.url);

export type Tf = typeof import("@tensorflow/tfjs-core") & typeof import("@tensorflow/tfjs-layers");

let loading: Promise<Tf> | undefined;

/**
 * TensorFlow.js on its WebAssembly backend (tfjs-node cannot be installed: it downloads libtensorflow).
 * Everything is loaded through `require` so the engine and Human's CommonJS build share one tfjs-core
 * instance and one registered backend; the .wasm binaries are read from the package's own folder.
 */
export function loadTf(): Promise<Tf> {
  loading ??= (async () => {
    const core = require("@tensorflow/tfjs-core") as typeof import("@tensorflow/tfjs-core");
    const layers = require("@tensorflow/tfjs-layers") as typeof import("@tensorflow/tfjs-layers");
    const wasm = require("@tensorflow/tfjs-backend-wasm") as typeof import("@tensorflow/tfjs-backend-wasm");
    const wasmDir = dirname(require.resolve("@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm"));
    wasm.setWasmPaths(`${wasmDir}/`);
    if (core.getBackend() !== "wasm") {
      await core.setBackend("wasm");
    }
    await core.ready();
    return { ...core, ...layers } as Tf;
  })();
  loading.catch(() => {
    loading = undefined;
  });
  return loading;
}
