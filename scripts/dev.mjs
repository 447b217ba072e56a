// `npm run dev`: the server with reload (tsx watch) and the Vite dev server, which proxies /v1 to it.
import { spawn } from "node:child_process";

const root = new URL("..", import.meta.url).pathname;
const children = [
  spawn("npm", ["run", "dev", "-w", "@prism/server"], { cwd: root, stdio: "inherit" }),
  spawn("npm", ["run", "dev", "-w", "@prism/web"], { cwd: root, stdio: "inherit" }),
];

function stopAll(signal) {
  for (const child of children) if (child.exitCode === null) child.kill(signal);
}
process.on("SIGINT", () => stopAll("SIGINT"));
process.on("SIGTERM", () => stopAll("SIGTERM"));
for (const child of children) {
  child.on("exit", (code) => {
    stopAll("SIGTERM");
    process.exitCode = code ?? 0;
  });
}
