#!/usr/bin/env sh
# The container image's build steps, shared by the Dockerfile and by scripts/image-check.sh (which CI
# runs, since CI has no Docker engine), so the two cannot drift apart.
#   build.sh deps   install exactly the lock file's dependencies (npm ci)
#   build.sh app    build the web app and the server bundle, then drop the development dependencies
set -eu
case "${1:-}" in
  deps)
    # onnxruntime-node's postinstall fetches CUDA libraries from NuGet on Linux x64; the CPU build in
    # its tarball is all the engine uses. package.json's allowScripts denies that script where npm reads
    # allowScripts; the variable, which the script itself reads, covers an npm that does not.
    ONNXRUNTIME_NODE_INSTALL=skip npm ci --no-audit --no-fund
    ;;
  app)
    npm run build
    npm prune --omit=dev --no-audit --no-fund
    ;;
  *)
    echo "usage: build.sh deps|app" >&2
    exit 2
    ;;
esac
