#!/usr/bin/env bash
# The timeline's parts, downloaded under PARTS_DIR (one directory per artifact, each holding runs/<run>), merged into one run and
# appended to the accumulated data directory DATA (restored from the previous publication, or new), then the site is written
# into SITE; DATA is uploaded again by the workflow, so the records accumulate and are never rewritten.
set -euo pipefail

: "${PARTS_DIR:?}" "${DATA:?}" "${SITE:?}" "${MERGED:?}"
mapfile -t parts < <(find "$PARTS_DIR" -path '*/runs/*/run.json' -printf '%h\n' | sort)
if (( ${#parts[@]} == 0 )); then
  echo "::error::no part of the timeline under $PARTS_DIR (no runs/<run>/run.json)"
  exit 2
fi
node harness/bin/dyno.js merge "${parts[@]}" --out "$MERGED"
node harness/bin/dyno.js timeline-add "$DATA" "$MERGED"
node harness/bin/dyno.js site "$DATA" --out "$SITE"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  echo "Timeline: $(find "$DATA/records" -name '*.json' | wc -l) records; site written to $SITE" >> "$GITHUB_STEP_SUMMARY"
fi
