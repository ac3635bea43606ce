#!/usr/bin/env bash
# How many parts a pull request's comparison is split into: its plan (`dyno compare-commits --plan`, the same options the parts
# run with), its expected seconds over the seconds one job should carry (JOB_BUDGET_SEC), as a matrix (matrix-parts.sh).
set -euo pipefail

: "${BASE_REF:?}" "${HEAD_REF:?}" "${FRAMEWORKS:?}" "${JOB_BUDGET_SEC:?}"
read -r -a extra <<< "${DYNO_RUN_ARGS:-}"
plan="$(mktemp)"
trap 'rm -f "$plan"' EXIT
# --measure given, never left to the default: this job has no valgrind, and would plan by wall clock what the parts count.
node harness/bin/dyno.js compare-commits "$BASE_REF" "$HEAD_REF" --plan \
  --profile ci --measure "${MEASURE:-instructions}" --frameworks "$FRAMEWORKS" "${extra[@]}" > "$plan"
# shellcheck disable=SC2016 # JavaScript, not shell
node -e '
  const plan = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
  console.log(`plan ${plan.id}: ${plan.cells} cells, ${plan.expectedSec} s expected one cell at a time`)
' "$plan"
PLAN_JSON="$plan" bash "$(dirname "$0")/matrix-parts.sh"
