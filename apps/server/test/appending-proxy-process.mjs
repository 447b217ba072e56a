// A reverse proxy as nginx runs with `proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for`:
// it appends the address of whoever connected to it to the X-Forwarded-For it received, and forwards
// the request from its own address. Run as its own process by test/appending-proxy.ts:
//   node appending-proxy-process.mjs <target origin> <local address to connect from>
// It prints the port it listens on (on 127.0.0.1) as its first line.
import { createServer, request } from "node:http";

const [target, localAddress] = process.argv.slice(2);
if (!target || !localAddress) {
  console.error("usage: appending-proxy-process.mjs <target origin> <local address>");
  process.exit(2);
}
const upstream = new URL(target);

const server = createServer((incoming, outgoing) => {
  const received = incoming.headers["x-forwarded-for"];
  const peer = incoming.socket.remoteAddress ?? "";
  const forwardedFor = received ? `${received}, ${peer}` : peer;
  const forwarded = request(
    {
      host: upstream.hostname,
      port: upstream.port,
      localAddress,
      method: incoming.method,
      path: incoming.url,
      headers: { ...incoming.headers, "x-forwarded-for": forwardedFor },
    },
    (answer) => {
      outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(outgoing);
    },
  );
  forwarded.on("error", () => {
    outgoing.writeHead(502);
    outgoing.end();
  });
  incoming.pipe(forwarded);
});

server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(typeof address === "object" && address ? address.port : 0);
});
process.on("SIGTERM", () => server.close(() => process.exit(0)));
