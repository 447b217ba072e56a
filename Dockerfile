# syntax=docker/dockerfile:1
# Prism: the console and API in one image. Build: `docker build -t prism .`; run it with compose.yaml.
# The build steps live in scripts/image/build.sh, which CI also runs outside Docker
# (scripts/image-check.sh), so what CI proves is what this file builds.

# Node 24 LTS, the Node the project develops and tests on (docs/decisions/018-node-24-from-the-registry.md).
# The slim image serves both stages: every native addon (argon2, sharp, onnxruntime-node) installs a
# prebuilt binary, so the build needs no compiler.
ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: dependencies, web app, server bundle, then production dependencies only -----------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# The manifests first, so the dependency layer is reused until the lock file changes.
COPY package.json package-lock.json .npmrc ./
COPY apps/server/package.json apps/server/
COPY apps/web/package.json apps/web/
COPY packages/contract/package.json packages/contract/
COPY packages/engine/package.json packages/engine/
COPY packages/sdk/package.json packages/sdk/
COPY packages/test-support/package.json packages/test-support/
COPY scripts/node-runtime/package.json scripts/node-runtime/
COPY scripts/image/build.sh scripts/image/
RUN sh scripts/image/build.sh deps
COPY . .
RUN sh scripts/image/build.sh app

# --- runtime: slim Debian with the speech tools, running as an unprivileged user -------------------
FROM ${NODE_IMAGE} AS runtime
# pocketsphinx and its English model power the builtin speech to text; ffmpeg decodes uploaded audio.
RUN apt-get update \
  && apt-get install -y --no-install-recommends pocketsphinx pocketsphinx-en-us ffmpeg \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    APP_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/prism
WORKDIR /app
COPY --from=build --chown=root:root /app /app
# The code stays root-owned and read-only to the server; only DATA_DIR is its to write.
RUN mkdir -p /var/lib/prism && chown node:node /var/lib/prism
USER node
VOLUME ["/var/lib/prism"]
EXPOSE 3000
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "scripts/image/healthcheck.mjs"]
# SIGTERM drains: new feature calls get 503, running ones get SHUTDOWN_TIMEOUT_MS (20 s by default).
# Give `docker stop` / the orchestrator more than that (compose.yaml sets stop_grace_period: 40s).
STOPSIGNAL SIGTERM
CMD ["node", "--enable-source-maps", "apps/server/dist/main.js"]
