import { type AddressInfo, connect, createServer, type Socket } from "node:net";

/**
 * A TCP link on loopback with the uplink of a real network: what the client sends reaches the server
 * at `bytesPerSecond`, what the server sends comes back at once, and a connection the server resets
 * is reset towards the client. On bare loopback a 5 MB upload sits whole in the kernel's buffers
 * before the server has even answered, which hides what a client on a real line meets: it is still
 * sending when the answer comes.
 */
export async function startThrottledLink(
  upstreamPort: number,
  bytesPerSecond: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect({ host: "127.0.0.1", port: upstreamPort });
    sockets.add(client);
    sockets.add(upstream);
    const tickMs = 20;
    const perTick = Math.max(1, Math.floor((bytesPerSecond * tickMs) / 1000));
    let queue: Buffer[] = [];
    let queued = 0;
    let clientEnded = false;
    const pump = setInterval(() => {
      let budget = perTick;
      while (budget > 0 && queue.length > 0) {
        const head = queue[0] as Buffer;
        const piece = head.subarray(0, budget);
        if (piece.length === head.length) queue.shift();
        else queue[0] = head.subarray(budget);
        queued -= piece.length;
        budget -= piece.length;
        if (!upstream.destroyed) upstream.write(piece);
      }
      // Back-pressure: the client's writes block while the line is busy, as on a real uplink.
      if (queued < perTick * 4) client.resume();
      if (clientEnded && queue.length === 0) {
        clearInterval(pump);
        if (!upstream.destroyed) upstream.end();
      }
    }, tickMs);
    client.on("data", (chunk: Buffer) => {
      queue.push(chunk);
      queued += chunk.length;
      if (queued >= perTick * 4) client.pause();
    });
    client.on("end", () => {
      clientEnded = true;
    });
    upstream.on("data", (chunk: Buffer) => {
      if (!client.destroyed) client.write(chunk);
    });
    upstream.on("end", () => {
      if (!client.destroyed) client.end();
    });
    const stop = () => {
      clearInterval(pump);
      queue = [];
    };
    upstream.on("error", () => {
      stop();
      if (!client.destroyed) client.resetAndDestroy();
    });
    upstream.on("close", () => {
      stop();
      sockets.delete(upstream);
    });
    client.on("error", () => {
      stop();
      upstream.destroy();
    });
    client.on("close", () => {
      stop();
      upstream.destroy();
      sockets.delete(client);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
