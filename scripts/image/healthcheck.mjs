// The container's HEALTHCHECK (and scripts/image-check.sh's): exit 0 when /healthz answers 200 within
// three seconds. Node's own fetch, so the slim runtime image needs no curl.
const port = process.env.PORT || "3000";
const url = process.argv[2] || `http://127.0.0.1:${port}/healthz`;
try {
  const response = await fetch(url, { signal: AbortSignal.timeout(3_000) });
  process.exit(response.ok ? 0 : 1);
} catch {
  process.exit(1);
}
