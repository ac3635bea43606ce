#!/usr/bin/env bash
# One part of a pull request's comparison: `dyno compare-commits --shard PART/COUNT` of base and head into OUT. The part's own
# verdicts are only shown; the merge judges the whole comparison.
set -euo pipefail

: "${BASE_REF:?}" "${HEAD_REF:?}" "${PART:?}" "${COUNT:?}" "${FRAMEWORKS:?}" "${OUT:?}"
read -r -a extra <<< "${DYNO_RUN_ARGS:-}"
node harness/bin/dyno.js compare-commits "$BASE_REF" "$HEAD_REF" --shard "$PART/$COUNT" \
  --profile ci --measure "${MEASURE:-instructions}" --frameworks "$FRAMEWORKS" --format md --out "$OUT" "${extra[@]}"
