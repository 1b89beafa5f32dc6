#!/usr/bin/env bash
# Validates deploy/kubernetes.yaml against the Kubernetes API's schemas, with the npm registry's
# `kubernetes-models` (the OpenAPI schemas of the Kubernetes API, compiled for AJV), installed in a
# temporary folder: no dependency of the project, and no kubeconform needed. It checks each
# object's kind and version, the types, required fields and enumerations; like kubeconform without
# -strict, it does not reject a field name the schema does not know.
#
#   scripts/check-kubernetes.sh [file.yaml]
set -euo pipefail
root_dir="$(cd "$(dirname "$0")/.." && pwd)"
file="$(realpath "${1:-$root_dir/deploy/kubernetes.yaml}")"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
echo '{"private": true, "type": "module"}' >"$work/package.json"
npm install --prefix "$work" --no-audit --no-fund --loglevel=error kubernetes-models@5 yaml@2 >&2
cat >"$work/check.js" <<'JS'
import fs from 'node:fs';
import { parseAllDocuments } from 'yaml';
const file = process.argv[2];
let failed = 0;
for (const doc of parseAllDocuments(fs.readFileSync(file, 'utf8'))) {
  const object = doc.toJS();
  if (!object) continue;
  const [group, version] = object.apiVersion.includes('/') ? object.apiVersion.split('/') : [null, object.apiVersion];
  const module = group ? `kubernetes-models/${group}/${version}` : `kubernetes-models/${version}`;
  const name = `${object.kind} ${object.metadata?.name}`;
  try {
    const Model = (await import(module))[object.kind];
    if (!Model) throw new Error(`no kind ${object.kind} in ${object.apiVersion}`);
    new Model(object).validate();
    console.log(`ok      ${object.apiVersion} ${name}`);
  } catch (error) {
    failed++;
    console.log(`INVALID ${object.apiVersion} ${name}: ${error.message}`);
  }
}
process.exit(failed ? 1 : 0);
JS
node "$work/check.js" "$file"
