#!/usr/bin/env bash
# The native-provider spike end to end: the emulator, a file backend, a Pulumi YAML program on
# `pulumi-resource-guardrails` (found on PATH): up, a no-change preview, an edit previewed by
# key and applied, refresh, import of an unmanaged guardrail, a secret arg, destroy.
# Usage: src/native/demo/run.sh [ts|python]   (after `npm run build`; YAML needs its host, see below;
#        `ts` runs demo/ts/index.js, the same program in JavaScript, on the Node.js host instead)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../../.." && pwd)
pulumi_bin=${PULUMI_BIN:-$HOME/.cache/pulumi-guardrails/pulumi-v3.248.0/bin/pulumi}
# pulumi-language-yaml: go install github.com/pulumi/pulumi-yaml/cmd/pulumi-language-yaml@v1.25.0
yaml_host=${YAML_HOST_DIR:-/tmp/yamlhost/bin}
[ -x "$yaml_host/pulumi-language-yaml" ] || { echo "no pulumi-language-yaml in $yaml_host" >&2; exit 1; }
work=$(mktemp -d); trap 'kill $emu_pid 2>/dev/null || true; rm -rf "$work"' EXIT
lang=${1:-yaml}
if [ "$lang" = ts ]; then
  cp "$repo/src/native/demo/ts/index.js" "$work/"; ln -s "$repo/node_modules" "$work/node_modules"
  printf 'name: guardrails-native-spike\nruntime: nodejs\n' >"$work/Pulumi.yaml"
elif [ "$lang" = python ]; then
  # PYTHON_HOST_DIR: pulumi-language-python built from sdk v3.68.0 (a wrapper module, as
  # scripts/ensure-pulumi builds the Node.js host); the SDK comes from gensdk (GENSDK=binary).
  py_host=${PYTHON_HOST_DIR:-/tmp/hosts/bin}; PATH=$PATH:/usr/local/go/bin
  exec_dir=$(GOFLAGS=-mod=mod GONOSUMDB=github.com/pulumi/pulumi go mod download -json github.com/pulumi/pulumi/sdk/v3@v3.68.0 | node -pe 'JSON.parse(require("fs").readFileSync(0)).Dir')/python/cmd
  mkdir -p "$work/bin" && install -m 0755 "$exec_dir/pulumi-language-python-exec" "$py_host/pulumi-language-python" "$work/bin/"
  yaml_host="$work/bin:$yaml_host"
  "${GENSDK:-/tmp/gensdk-bin}" <(node "$repo/dist/src/native/main.js" --print-schema) python "$work/sdk"
  cp "$repo/src/native/demo/python/__main__.py" "$work/"
  python3 -m venv "$work/venv" && "$work/venv/bin/pip" install -q pulumi "$work/sdk" >/dev/null
  # The v3.68 host does not see the CLI's `virtualenv` runtime option: the venv goes first on PATH.
  yaml_host="$work/venv/bin:$yaml_host"
  printf 'name: guardrails-native-spike\nruntime: python\n' >"$work/Pulumi.yaml"
else
  cp "$repo/src/native/demo/Pulumi.yaml" "$work/"
fi
node "$repo/dist/emulator/cli.js" --port 0 --log-requests >"$work/emulator.log" 2>&1 & emu_pid=$!
for _ in $(seq 50); do url=$(head -1 "$work/emulator.log" | grep -o 'http://[^ ]*' | head -1 || true); [ -n "$url" ] && break; sleep 0.1; done
# PLUGIN_TARBALL=<.tgz>: install the plugin into PULUMI_HOME with `pulumi plugin install --file`, not from PATH.
plugin_dir=$repo/src/native/bin; [ -n "${PLUGIN_TARBALL:-}" ] && plugin_dir=$work/none
export PATH="$plugin_dir:$yaml_host:$(dirname "$pulumi_bin"):$PATH"
export PULUMI_HOME="$work/home" PULUMI_BACKEND_URL="file://$work" PULUMI_CONFIG_PASSPHRASE=spike
export PULUMI_SKIP_UPDATE_CHECK=1 PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION=true GUARDRAILS_NATIVE_TRACE="$work/trace.log"
unset GUARDRAILS_API_KEY GUARDRAILS_BASE_URL
cd "$work"
step() { echo; echo "=== $*"; local t=$SECONDS; "$@"; echo "--- ${*:1:2}: $((SECONDS - t))s"; }
if [ -n "${PLUGIN_TARBALL:-}" ]; then
  step pulumi plugin install resource guardrails "$(node -p "require('$repo/package.json').version")" --file "$PLUGIN_TARBALL"
fi
pulumi stack init dev --non-interactive >/dev/null
pulumi config set guardrails:baseUrl "$url"
echo "=== preview with no key (CheckConfig must fail)"; pulumi preview --non-interactive 2>&1 | grep -iE 'apiKey|error' | head -5 || true
pulumi config set --secret guardrails:apiKey gr-demo-management-key
step pulumi up --yes --non-interactive
step pulumi preview --expect-no-changes --non-interactive
[ "$lang" != yaml ] && pulumi config set edited true || sed -i 's/{ slug: credit-card, action: block }/{ slug: phone, action: redact }/; s/{ slug: email, action: redact }/{ slug: email, action: block }/; s/vendor-b\/model-m/vendor-c\/model-q/' Pulumi.yaml
step pulumi preview --diff --non-interactive
step pulumi up --yes --non-interactive --skip-preview
step pulumi refresh --yes --non-interactive --skip-preview
mk() { curl -s -X POST "$url/api/v1/guardrails" -H "Authorization: Bearer gr-demo-management-key" -H 'content-type: application/json' \
  -d "{\"name\":\"$1\",\"limit_usd\":5,\"reset_interval\":\"daily\"}" | node -pe 'JSON.parse(require("fs").readFileSync(0)).data.id'; }
if [ "$lang" = yaml ]; then
  # Adoption warns at preview (the core's console.error, sent to the engine's Log on the resource).
  cp Pulumi.yaml Pulumi.yaml.keep
  printf '  adopted:\n    type: guardrails:index:Guardrail\n    properties: { name: Adoptee, adoptId: %s, limitUsd: 9, resetInterval: daily }\n' "$(mk Adoptee)" \
    | sed -i '/^variables:/e cat /dev/stdin' Pulumi.yaml
  step pulumi preview --non-interactive
  mv Pulumi.yaml.keep Pulumi.yaml
fi
# An unmanaged guardrail, made straight on the service, imported by id through Read.
other=$(mk Unmanaged)
step pulumi import guardrails:index:Guardrail unmanaged "$other" --yes --non-interactive --generate-code=false
echo "=== state (plain export): provider inputs, the secret limitUsd and its copies"; pulumi stack export | node -e '
  const s=JSON.parse(require("fs").readFileSync(0)); for (const r of s.deployment.resources) if (r.type!=="pulumi:pulumi:Stack")
    console.log(r.type, r.urn.split("::").pop(), JSON.stringify({inputs: r.inputs?.apiKey ?? r.inputs?.limitUsd, limitUsd: r.outputs?.limitUsd, args: r.outputs?.args?.limitUsd, secretArgs: r.outputs?.__secretArgs}).slice(0, 400));'
echo "plain key copies in stack export: $(pulumi stack export | grep -c gr-demo-management-key || true)"
echo "=== provider trace"; cat "$work/trace.log" | sort | uniq -c
echo "=== import with --generate-code, then preview of the generated program"
pulumi state delete "urn:pulumi:dev::guardrails-native-spike::guardrails:index:Guardrail::unmanaged" --yes --force --non-interactive >/dev/null
pulumi import guardrails:index:Guardrail unmanaged "$other" --yes --non-interactive --out "$work/gen.yaml" >/dev/null 2>&1 || echo "import --generate-code failed"
cat "$work/gen.yaml" 2>/dev/null || true
[ "$lang" != yaml ] && { pulumi state unprotect --all --yes --non-interactive >/dev/null; step pulumi destroy --yes --non-interactive --skip-preview; exit 0; }
# The generated resource goes into the program: it must preview with no change.
node -e 'const Y=require(process.argv[1]),fs=require("fs");const p=Y.parse(fs.readFileSync("Pulumi.yaml","utf8"));
  Object.assign(p.resources,Y.parse(fs.readFileSync(process.argv[2],"utf8")).resources);fs.writeFileSync("Pulumi.yaml",Y.stringify(p))' \
  "$repo/node_modules/yaml" "$work/gen.yaml"
step pulumi preview --expect-no-changes --non-interactive
pulumi state unprotect --all --yes --non-interactive >/dev/null
step pulumi destroy --yes --non-interactive --skip-preview
echo "=== emulator request log (calls)"; grep -cE '^(GET|POST|PATCH|DELETE)' "$work/emulator.log" || true
