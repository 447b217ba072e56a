import { createServer } from "node:net";

/**
 * A TCP port on the loopback interface that nothing listens on right now: the system picks it for a
 * probe that closes at once. Another process may take it before the caller listens; the servers started
 * this way fail loudly when that happens rather than talking to the wrong peer.
 */
export function findFreePort(): Promise<number> {
  return new Promise((resolvePort, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const address = probe.address();
      const port = typeof address === "object" && address ? address.port : 0;
      probe.close(() => resolvePort(port));
    });
  });
}
