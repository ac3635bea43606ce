#!/usr/bin/env bash
# The action of action.yml: installs dyno where the action was checked out (DYNO_DIR), then `dyno compare-versions` of the
# framework's base (BASE_PATH, or BASE_VERSION, or the SUT's own pin) against its head (HEAD_PATH) inside the SUT; the markdown
# goes to COMPARISON (and the job summary); the exit status is the comparison's (1: a significant regression).
set -euo pipefail
# shellcheck source=action-steps.sh
source "$(dirname "$0")/action-steps.sh"

: "${SUT:?}" "${HEAD_PATH:?}"
DYNO_DIR="${DYNO_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
workspace="${GITHUB_WORKSPACE:-$PWD}"
absolute() { case "$1" in /*) printf '%s\n' "$1" ;; *) printf '%s\n' "$workspace/$1" ;; esac }

if [[ -n "${BASE_PATH:-}" ]]; then
  base="$SUT@path:$(absolute "$BASE_PATH")"
elif [[ -n "${BASE_VERSION:-}" ]]; then
  base="$SUT@$BASE_VERSION"
else
  base="$SUT"
fi
head="$SUT@path:$(absolute "$HEAD_PATH")"

install_action_tools
if [[ "${DYNO_SKIP_INSTALL:-}" != "true" ]]; then
  (cd "$DYNO_DIR" && pnpm install --frozen-lockfile --filter '@dyno/harness...' --filter "@dyno/sut-$SUT...")
fi

args=(compare-versions "$base" "$head" --measure "${MEASURE:-instructions}" --format md --fail-on regression)
if [[ -n "${SCENARIOS:-}" ]]; then args+=(--scenarios "$SCENARIOS"); fi
if [[ -n "${THRESHOLD:-}" ]]; then args+=(--threshold "$THRESHOLD"); fi
if [[ -n "${ROUNDS:-}" ]]; then args+=(--repeats "$ROUNDS"); fi
read -r -a extra <<< "${DYNO_ARGS:-}"
comparison="${COMPARISON:-${RUNNER_TEMP:-/tmp}/dyno-comparison.md}"
set +e
node "$DYNO_DIR/harness/bin/dyno.js" "${args[@]}" "${extra[@]}" > "$comparison"
status=$?
set -e
publish_comparison "$comparison"
exit "$status"
