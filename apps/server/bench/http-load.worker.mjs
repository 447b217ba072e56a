// The benchmarks' load generator, in a worker thread: the client's own work (building requests, undici,
// reading answers) runs beside the server's event loop instead of on it, as a client on another
// machine would. It sends `calls` requests, `concurrency` at a time, and posts back each one's latency.
import { performance } from "node:perf_hooks";
import { parentPort, workerData } from "node:worker_threads";

const { url, method, headers, body, calls, concurrency } = workerData;
const payload = body ? Buffer.from(body) : undefined;
const latencies = [];
let next = 0;
let failure;
const started = performance.now();
await Promise.all(
  Array.from({ length: concurrency }, async () => {
    while (next < calls && !failure) {
      next += 1;
      const begin = performance.now();
      const response = await fetch(url, { method, headers, body: payload });
      const text = await response.text();
      if (!response.ok) {
        failure = `${response.status} ${text.slice(0, 300)}`;
        return;
      }
      latencies.push(performance.now() - begin);
    }
  }),
);
parentPort.postMessage({ latencies, seconds: (performance.now() - started) / 1000, failure });
