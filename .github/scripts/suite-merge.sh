#!/usr/bin/env bash
# The suite's parts, downloaded under PARTS_DIR (one directory per artifact, each holding its run directory), merged into MERGED;
# report.md goes to the job summary.
set -euo pipefail

: "${PARTS_DIR:?}" "${MERGED:?}"
mapfile -t parts < <(find "$PARTS_DIR" -mindepth 3 -maxdepth 3 -name run.json -printf '%h\n' | sort)
if (( ${#parts[@]} == 0 )); then
  echo "::error::no part of the suite under $PARTS_DIR (no run.json two levels down)"
  exit 2
fi
mixed=()
if [[ "${ALLOW_MIXED_MACHINES:-false}" == "true" ]]; then mixed=(--allow-mixed-machines); fi
node harness/bin/dyno.js merge "${parts[@]}" --out "$MERGED" "${mixed[@]}"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then cat "$MERGED/report.md" >> "$GITHUB_STEP_SUMMARY"; fi
