#!/usr/bin/env bash
# The command of --adapter envelope-ts:PATH and profiles-ts:PATH: `bash run.sh AREA PATH`.
# Runs adapter.mjs under the Node 22 runtime pinned by the pi-node adapter (`npm ci` in
# ../pi-node installs it), which strips TypeScript types by itself (22.18 or newer); with
# --experimental-transform-types it also turns the syntax that is more than types (parameter
# properties, enums) into JavaScript.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
node="$here/../pi-node/node_modules/.bin/node"
if [ ! -x "$node" ]; then
  echo "ext-ts adapter: the pinned Node runtime is not installed; run \`npm ci\` in $(cd "$here/../pi-node" && pwd)" >&2
  exit 3
fi
exec "$node" --experimental-transform-types --disable-warning=ExperimentalWarning "$here/adapter.mjs" "$@"
