#!/usr/bin/env bash
# One part of the timeline: `dyno timeline --shard PART/COUNT` of the releases of FRAMEWORKS on RUNTIMES and SCENARIOS, counted
# into OUT (its run directory; the part's own data directory beside it is not what the merge reads). A release that does not
# install or serve the contract is a record with its reason, not a failure of the part.
set -euo pipefail

: "${PART:?}" "${COUNT:?}" "${OUT:?}" "${FRAMEWORKS:?}"
# Further `dyno timeline` options, as words (e.g. `--latest-majors 2 --count-windows 12`).
read -r -a extra <<< "${DYNO_TIMELINE_ARGS:-}"
# The part starts from the repository's dataset (DATA, data/timeline): a release it holds on every runtime and scenario with these
# settings is not counted again, and every part leaves out the same ones, so their plans stay one plan.
mkdir -p "$OUT"
if [[ -d "${DATA:-data/timeline}" ]]; then cp -R -- "${DATA:-data/timeline}" "$OUT/data"; fi
node harness/bin/dyno.js timeline "$OUT/data" --frameworks "$FRAMEWORKS" --runtime "${RUNTIMES:-node@20,node@22,node@24}" \
  --scenarios "${SCENARIOS:-json}" --releases "${RELEASES:-minor-tips}" --shard "$PART/$COUNT" --seed 1 --out "$OUT/runs" "${extra[@]}"
