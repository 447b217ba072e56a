import { isIPv4 } from "node:net";
import { PRODUCT_NAME } from "@prism/contract";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AppDependencies } from "../../app-dependencies";

/** What these routes use of the application's dependencies. */
export type MailboxRouteDeps = Pick<AppDependencies, "config" | "outbox">;

const MAILBOX_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${PRODUCT_NAME} dev mailbox</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/dev/mailbox.css"></head>
<body><header><h1>Dev mailbox</h1><p>Mail the server stored in its outbox, newest first. Not available in production.</p></header>
<main id="mails"><p class="empty">Loading…</p></main>
<script src="/dev/mailbox.js"></script></body></html>`;

const MAILBOX_CSS = `body{margin:0;font-family:system-ui,sans-serif;background:#f6f6fb;color:#1f2330}
header{padding:24px 32px;background:#fff;border-bottom:1px solid #e6e6ef}h1{margin:0 0 4px;font-size:22px}
header p{margin:0;color:#6b7085}main{padding:24px 32px;display:grid;gap:16px;max-width:960px}
article{background:#fff;border:1px solid #e6e6ef;border-radius:10px;padding:16px 20px}
article h2{margin:0 0 4px;font-size:16px}.meta{color:#6b7085;font-size:13px;margin-bottom:12px}
pre{white-space:pre-wrap;font-family:inherit;margin:0}.empty{color:#6b7085}`;

// Kept as a separate file (not inline) so the page works under the app's strict script CSP.
const MAILBOX_JS = `fetch("/dev/mailbox").then(r=>r.json()).then(mails=>{
const main=document.getElementById("mails");main.textContent="";
if(!mails.length){const p=document.createElement("p");p.className="empty";p.textContent="No mail yet.";main.append(p);return;}
for(const m of mails){const a=document.createElement("article");const h=document.createElement("h2");h.textContent=m.subject;
const meta=document.createElement("div");meta.className="meta";meta.textContent="To "+m.to+" · "+new Date(m.createdAt).toLocaleString();
const pre=document.createElement("pre");pre.textContent=m.text;a.append(h,meta,pre);main.append(a);}});`;

/**
 * Whether the TCP peer is this machine. The socket's own address, never X-Forwarded-For: behind a proxy
 * on the same machine every request would look local, so the mailbox must not be published that way.
 */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  if (address === "::1") return true;
  const ipv4 = address.startsWith("::ffff:") ? address.slice("::ffff:".length) : address;
  return isIPv4(ipv4) && ipv4.startsWith("127.");
}

/**
 * The development mailbox: the outbox as JSON and as a small page, so sign-up codes can be read
 * without an SMTP server. Never registered in production, and only for requests from this machine's
 * loopback interface: it shows every code and invitation the server mailed, so anyone else reading it
 * could take over any account being created.
 */
export function registerDevMailboxRoutes(app: FastifyInstance, deps: MailboxRouteDeps): void {
  if (deps.config.isProduction) return;
  const localOnly = async (request: FastifyRequest, reply: FastifyReply) => {
    if (!isLoopbackAddress(request.socket.remoteAddress)) return reply.callNotFound();
  };
  app.get("/dev/mailbox", { onRequest: localOnly }, async () => deps.outbox.list());
  app.get("/dev/mailbox.html", { onRequest: localOnly }, async (_request, reply) =>
    reply.type("text/html; charset=utf-8").send(MAILBOX_PAGE),
  );
  app.get("/dev/mailbox.css", async (_request, reply) =>
    reply.type("text/css; charset=utf-8").send(MAILBOX_CSS),
  );
  app.get("/dev/mailbox.js", async (_request, reply) =>
    reply.type("text/javascript; charset=utf-8").send(MAILBOX_JS),
  );
}
