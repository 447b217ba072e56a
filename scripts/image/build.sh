#!/usr/bin/env sh
# The container image's build steps, shared by the Dockerfile and by scripts/image-check.sh (which CI
# runs, since CI has no Docker engine), so the two cannot drift apart.
#   build.sh deps   install exactly the lock file's dependencies (npm ci)
#   build.sh app    build the web app and the server bundle, then drop the development dependencies
set -eu
case "${1:-}" in
  deps)
    npm ci --no-audit --no-fund
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
