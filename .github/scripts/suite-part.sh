#!/usr/bin/env bash
# One part of the suite: `dyno run --shard PART/COUNT` of the suite's plan into OUT. A part whose runs are not all ok (exit 1) is still
# a part: its failed and invalid runs are results, and the merge reports them.
set -euo pipefail

: "${PART:?}" "${COUNT:?}" "${OUT:?}"
args=(--shard "$PART/$COUNT" --seed "${SEED:-1}" --profile "${PROFILE:-standard}" --measure "${MEASURE:-wall-clock}" --out "$OUT")
if [[ -n "${FRAMEWORKS:-}" ]]; then args+=(--frameworks "$FRAMEWORKS"); fi
# Further `dyno run` options, as words (e.g. `--connections 10,100 --repeats 3`).
read -r -a extra <<< "${DYNO_RUN_ARGS:-}"
set +e
node harness/bin/dyno.js run "${args[@]}" "${extra[@]}"
status=$?
set -e
if (( status > 1 )); then
  echo "::error::dyno run of part $PART/$COUNT exited $status (see the log)"
  exit "$status"
fi
