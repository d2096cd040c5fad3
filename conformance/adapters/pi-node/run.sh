#!/usr/bin/env bash
# The pi-node adapter's command (`pi-conformance run --adapter pi-node` runs `bash run.sh`).
# Runs adapter.mjs under the Node 22 runtime pinned in package.json when it is installed
# (`npm ci` in this folder), else lets launch.mjs pick a new enough Node or explain what is missing.
# `--release DIR [--scope @mariozechner]` runs it over another release installed at DIR (the kit
# installs it: `--adapter pi-node@VERSION`) instead of the Pi pinned here.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
if [ -x "$here/node_modules/.bin/node" ] && { [ -d "$here/node_modules/@earendil-works/pi-coding-agent" ] || [ "${1:-}" = --release ]; }; then
  exec "$here/node_modules/.bin/node" "$here/adapter.mjs" "$@"
fi
if ! command -v node >/dev/null 2>&1; then
  echo "pi-node adapter: no Node runtime; run \`npm ci\` in $here (it installs a pinned Node 22)" >&2
  exit 3
fi
exec node "$here/launch.mjs" "$@"
