#!/usr/bin/env bash
# The timeline's parts, downloaded under PARTS_DIR (one directory per artifact, each holding runs/<run>), merged into one run and
# appended to the data directory DATA (the repository's own, data/timeline), then the site is written into SITE. The records this
# run appended are copied into NEW_RECORDS when it is given, each with its function list (<id>.json.gz) where it has one: the
# propose job offers them to the repository as a pull request.
set -euo pipefail

: "${PARTS_DIR:?}" "${DATA:?}" "${SITE:?}" "${MERGED:?}"
mapfile -t parts < <(find "$PARTS_DIR" -path '*/runs/*/run.json' -printf '%h\n' 2>/dev/null | sort)
held_names() { find "$DATA/records" -maxdepth 1 -type f -name '*.json' -printf '%f\n' 2>/dev/null | sort; }
held_before="$(mktemp)"
held_names > "$held_before"
if (( ${#parts[@]} == 0 )); then
  # A part whose releases the dataset holds on every runtime and scenario counts nothing and writes no run.
  echo "no part of the timeline counted anything (no runs/<run>/run.json under $PARTS_DIR): the dataset is published as it is"
else
  node harness/bin/dyno.js merge "${parts[@]}" --out "$MERGED"
  node harness/bin/dyno.js timeline-add "$DATA" "$MERGED"
fi
if [[ -n "${NEW_RECORDS:-}" ]]; then
  mkdir -p "$NEW_RECORDS"
  while IFS= read -r name; do
    cp -- "$DATA/records/$name" "$NEW_RECORDS/$name"
    list="$DATA/functions/${name%.json}.json.gz"
    if [[ -f "$list" ]]; then cp -- "$list" "$NEW_RECORDS/${name%.json}.json.gz"; fi
  done < <(comm -13 "$held_before" <(held_names))
  echo "$(find "$NEW_RECORDS" -type f -name '*.json' | wc -l) records appended by this run, in $NEW_RECORDS"
fi
rm -f "$held_before"
node harness/bin/dyno.js site "$DATA" --out "$SITE"
if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then
  echo "Timeline: $(find "$DATA/records" -name '*.json' | wc -l) records; site written to $SITE" >> "$GITHUB_STEP_SUMMARY"
fi
