import { constants } from "node:zlib";
import compress from "@fastify/compress";
import type { FastifyInstance } from "fastify";

/** Answers smaller than this go as they are: compressing them saves less than it costs. */
export const COMPRESS_THRESHOLD_BYTES = 1024;

/** Stored inputs and results (images, audio): compressed already, sent as they are. */
const FILES_PREFIX = "/v1/files/";

/**
 * Compresses the API's JSON answers (the routes under /v1/) above {@link COMPRESS_THRESHOLD_BYTES}
 * (history pages, key lists, the API description) with brotli or gzip as the client accepts. Nothing
 * else: the web build's files are compressed once at build time and served as they are, and stored
 * images and audio are compressed already. Brotli runs at quality 4, which compresses JSON nearly as
 * well as 11 at a fraction of the CPU. Request bodies are never inflated (the plugin would, by
 * default): uploads are read with their own limits, as sent. Runs before the plugin's own hook, so the
 * routes it leaves out never get the plugin's hook at all.
 */
export async function registerCompression(app: FastifyInstance): Promise<void> {
  app.addHook("onRoute", (route) => {
    route.decompress ??= false;
    const isApi = route.url.startsWith("/v1/") && !route.url.startsWith(FILES_PREFIX);
    if (!isApi) route.compress ??= false;
  });
  await app.register(compress, {
    threshold: COMPRESS_THRESHOLD_BYTES,
    encodings: ["br", "gzip"],
    customTypes: /^application\/json(?:;|$)/,
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
}
