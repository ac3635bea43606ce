#!/usr/bin/env bash
# The matrix of a split plan: `count` (N) and `parts` ([1, …, N]) for a job's outputs, given N (PARTS) or worked out from a
# plan's expected seconds (PLAN_JSON, as `dyno … --plan` prints it) and the seconds one job should take (JOB_BUDGET_SEC).
set -euo pipefail

output="${GITHUB_OUTPUT:-/dev/stdout}"
if [[ -n "${PARTS:-}" ]]; then
  if ! [[ "$PARTS" =~ ^[0-9]+$ ]] || (( PARTS < 1 || PARTS > 256 )); then
    echo "::error::parts must be a whole number from 1 to 256, got \`$PARTS\`" >&2
    exit 2
  fi
  count="$PARTS"
else
  : "${PLAN_JSON:?PLAN_JSON or PARTS is needed}" "${JOB_BUDGET_SEC:?JOB_BUDGET_SEC is needed with PLAN_JSON}"
  # shellcheck disable=SC2016 # JavaScript, not shell
  count="$(node -e '
    const plan = JSON.parse(require("node:fs").readFileSync(process.argv[1], "utf8"))
    const budget = Number(process.argv[2])
    if (!(budget > 0)) throw new Error(`JOB_BUDGET_SEC must be a positive number of seconds, got ${process.argv[2]}`)
    console.log(Math.max(1, Math.min(plan.cells, 256, Math.ceil(plan.expectedSec / budget))))
  ' "$PLAN_JSON" "$JOB_BUDGET_SEC")"
fi
parts="$(node -e 'console.log(JSON.stringify(Array.from({ length: Number(process.argv[1]) }, (_, i) => i + 1)))' "$count")"
echo "count=$count" >> "$output"
echo "parts=$parts" >> "$output"
