#!/usr/bin/env bash
# Leaves the checkout with its dependencies only, after `pnpm install` and `pnpm build`: what the Docker image
# ships. A fresh install with --prod rather than `pnpm prune --prod`, which in this workspace removes the links
# between its packages too (and without a TTY asks before it removes anything). --offline: the store has every
# package from the full install. Usage: scripts/install-production.sh (in the checkout)
set -euo pipefail
rm -rf node_modules apps/*/node_modules packages/*/node_modules
CI=true pnpm install --frozen-lockfile --prod --offline
