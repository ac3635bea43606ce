#!/usr/bin/env bash
# The comparison's parts, downloaded under PARTS_DIR (one directory per artifact, each holding a compare-commits results
# directory), merged into MERGED and compared as one: base against head, the rounds paired. The markdown goes to COMPARE_MD and
# the job summary; the exit status is the comparison's (1: a significant regression beyond the threshold).
set -euo pipefail

: "${PARTS_DIR:?}" "${MERGED:?}" "${COMPARE_MD:?}"
mapfile -t parts < <(find "$PARTS_DIR" -mindepth 3 -maxdepth 3 -name compare-commits.json -printf '%h\n' | sort)
if (( ${#parts[@]} == 0 )); then
  echo "::error::no part of the comparison under $PARTS_DIR (no compare-commits.json two levels down)"
  exit 2
fi
node harness/bin/dyno.js merge "${parts[@]}" --out "$MERGED"
threshold=()
if [[ -n "${THRESHOLD:-}" ]]; then threshold=(--threshold "$THRESHOLD"); fi
# What was compared, from the merged compare-commits.json, above the table.
# shellcheck disable=SC2016 # JavaScript, not shell
node -e '
  const index = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
  const side = (entry) => `\`${entry.commit.slice(0, 12)}\` (${entry.ref}: ${entry.subject})`
  console.log(`Base ${side(index.base)} against head ${side(index.head)}, ${index.rounds} alternating round${index.rounds === 1 ? "" : "s"} ` +
    `per part, ${index.measure}; ${index.merged.parts.length} part${index.merged.parts.length === 1 ? "" : "s"} on machines of their own ` +
    `(${index.merged.parts.map((part) => `${part.shard}: ${part.cells} cell${part.cells === 1 ? "" : "s"} in ${Math.round(part.wallSec)} s`).join(", ")}).\n`)
' "$MERGED/compare-commits.json" > "$COMPARE_MD"
set +e
node harness/bin/dyno.js compare "$MERGED/base" "$MERGED/head" --paired --format md --fail-on regression "${threshold[@]}" >> "$COMPARE_MD"
status=$?
set -e
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then cat "$COMPARE_MD" >> "$GITHUB_STEP_SUMMARY"; fi
exit "$status"
