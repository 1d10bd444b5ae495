#!/usr/bin/env bash
# The plugin as one tarball for `pulumi plugin install resource guardrails <version> --file <tgz>`:
# the compiled face bundled into one file (rolldown, already here through vitest's vite) and a
# launcher. Needs only `node` on the target machine. Usage: src/native/demo/pack.sh [out.tgz]
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
out=$(realpath -m "${1:-$repo/pulumi-resource-guardrails-v$(node -p "require('$repo/package.json').version").tgz}")
stage=$(mktemp -d); trap 'rm -rf "$stage"' EXIT
node "$repo/node_modules/rolldown/bin/cli.mjs" "$repo/dist/src/native/main.js" --platform node --format cjs \
  --file "$stage/main.js" >/dev/null
printf '#!/bin/sh\nexec node "$(dirname "$0")/main.js" "$@"\n' >"$stage/pulumi-resource-guardrails"
chmod +x "$stage/pulumi-resource-guardrails"
tar -C "$stage" -czf "$out" pulumi-resource-guardrails main.js
echo "$out"
