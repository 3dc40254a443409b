#!/usr/bin/env bash
# Installs this checkout the two ways a newcomer installs pnpm, each from a clean clone with its own pnpm:
#   1. `npm install -g pnpm` (today's release), then `pnpm install --frozen-lockfile`
#   2. corepack (Node's bundled one, pinned by package.json's packageManager), then the same
# and builds once, so a pnpm release that refuses the repo shows up here rather than on a newcomer's machine;
# then installs the build again as the Docker image does (production dependencies only) and checks that the
# production entry points find every module they load.
# Reaches only the npm registry; about a minute with a warm pnpm store. Usage: scripts/check-fresh-install.sh
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/hookline-fresh.XXXXXX)
trap 'rm -rf "$work"' EXIT
base_path=/usr/local/bin:/usr/bin:/bin

fresh_clone() { git clone -q "$repo" "$work/$1" && echo "$work/$1"; }

echo "fresh install: npm install -g pnpm (latest)"
npm install -g --prefix "$work/npm-pnpm" pnpm@latest >/dev/null 2>&1
dir=$(fresh_clone npm)
(cd "$dir" && PATH="$work/npm-pnpm/bin:$base_path" timeout 600 pnpm install --frozen-lockfile >"$work/npm.log" 2>&1) ||
  { cat "$work/npm.log"; echo "FAILED: npm-installed pnpm $("$work/npm-pnpm/bin/pnpm" --version)"; exit 1; }
# The build writes turbo's cache of this checkout (--force: never reads it, so the clone really builds): the same
# sources build the same outputs, and the checkout's own `pnpm build` afterwards (CI's next step) restores them
# instead of building everything a second time.
(cd "$dir" && PATH="$work/npm-pnpm/bin:$base_path" TURBO_CACHE_DIR="$repo/.turbo/cache" timeout 600 pnpm build --force \
  >"$work/build.log" 2>&1) ||
  { tail -30 "$work/build.log"; echo "FAILED: pnpm build"; exit 1; }
echo "  ok: pnpm $("$work/npm-pnpm/bin/pnpm" --version) installed and built the repo"
# The Docker image's install: dependencies only. Every production entry point must find its modules there.
(cd "$dir" && PATH="$work/npm-pnpm/bin:$base_path" timeout 300 scripts/install-production.sh >"$work/prod.log" 2>&1 &&
  PATH="$work/npm-pnpm/bin:$base_path" node scripts/check-production-install.mjs) ||
  { tail -30 "$work/prod.log"; echo "FAILED: the production install"; exit 1; }

echo "fresh install: corepack"
if ! command -v corepack >/dev/null 2>&1; then
  echo "  skipped: this Node.js ships no corepack (Node 25 and later); npm's pnpm was checked above"
  exit 0
fi
mkdir -p "$work/corepack-bin"
corepack enable --install-directory "$work/corepack-bin" pnpm
dir=$(fresh_clone corepack)
(cd "$dir" && PATH="$work/corepack-bin:$base_path" COREPACK_ENABLE_DOWNLOAD_PROMPT=0 COREPACK_HOME="$work/corepack-home" \
  timeout 600 pnpm install --frozen-lockfile >"$work/corepack.log" 2>&1) ||
  { cat "$work/corepack.log"; echo "FAILED: corepack $(corepack --version)"; exit 1; }
echo "  ok: corepack $(corepack --version) ran pnpm $(cd "$dir" && PATH="$work/corepack-bin:$base_path" COREPACK_HOME="$work/corepack-home" pnpm --version)"
