import sharp from "sharp";
import { type LocalServer, sendJson, startLocalServer } from "./local-http-server";

/**
 * A model server for tests that count money: background removal answers a small PNG, speech to text a
 * one-segment transcript, and upscaling fails (500), so a test has a success, a per-minute price and a
 * refunded failure. Serve it with `MODEL_SERVER_FEATURES` naming {@link STUB_MODEL_SERVER_FEATURES}.
 */
export const STUB_MODEL_SERVER_FEATURES = "image-background-removal,speech-to-text,image-upscaling";

export function startStubModelServer(): Promise<LocalServer> {
  return startLocalServer((request, response) => {
    if (request.method === "GET" && request.path === "/health") return sendJson(response, 200, {});
    if (request.path === "/image-background-removal") {
      void sharp({ create: { width: 8, height: 8, channels: 3, background: { r: 1, g: 2, b: 3 } } })
        .png()
        .toBuffer()
        .then((png) => {
          response.writeHead(200, { "content-type": "image/png" });
          response.end(png);
        });
      return;
    }
    if (request.path === "/speech-to-text") {
      return sendJson(response, 200, { language: "en", segments: [{ start: 0, end: 1, text: "hello" }] });
    }
    if (request.path === "/image-upscaling") return sendJson(response, 500, { error: "out of memory" });
    sendJson(response, 404, {});
  });
}
