#!/usr/bin/env bash
# The check step of action.yml: runs `kubedv check` with the action's inputs (INPUT_* variables),
# writing SARIF too when INPUT_SARIF is set. Exit status: kubedv check's.
set -u
args=(check)
for p in ${INPUT_PATHS:-.}; do args+=("$p"); done
for c in ${INPUT_CRDS:-}; do args+=(--crds "$c"); done
for t in ${INPUT_TYPES:-}; do args+=(--types "$t"); done
[ -n "${INPUT_K8S_VERSION:-}" ] && args+=(--k8s-version "$INPUT_K8S_VERSION")
[ -n "${INPUT_OLD_REF:-}" ] && args+=(--old-ref "$INPUT_OLD_REF")
[ "${INPUT_STRICT:-false}" = "true" ] && args+=(--strict)
status=0
if [ -n "${INPUT_SARIF:-}" ]; then
  kubedv --format sarif "${args[@]}" > "$INPUT_SARIF" || status=$?
  # SARIF is the record; the annotations below are the readable output.
  [ "$status" -ge 2 ] && exit "$status"
fi
kubedv --format "${INPUT_FORMAT:-github}" "${args[@]}" || status=$?
exit "$status"
