#!/usr/bin/env bash
# The service mode of action.yml: installs dyno where the action was checked out (DYNO_DIR), then `dyno compare-commits BASE_REF
# HEAD_REF --app APP` on the service's repository (the workspace); the verdict table, regressed rows first, goes to COMPARISON, the job
# summary and, with a token and a pull request, a comment on it (the last one dyno wrote there is replaced). The exit status is the
# comparison's (1: a significant regression).
set -euo pipefail
# shellcheck source=action-steps.sh
source "$(dirname "$0")/action-steps.sh"

: "${APP:?}" "${BASE_REF:?}"
DYNO_DIR="${DYNO_DIR:-$(cd "$(dirname "$0")/../.." && pwd)}"
workspace="${GITHUB_WORKSPACE:-$PWD}"
case "$APP" in /*) app="$APP" ;; *) app="$workspace/$APP" ;; esac

install_action_tools
if [[ "${DYNO_SKIP_INSTALL:-}" != "true" ]]; then
  (cd "$DYNO_DIR" && pnpm install --frozen-lockfile --filter '@dyno/harness...')
fi

args=(compare-commits "$BASE_REF" "${HEAD_REF:-HEAD}" --app "$app" --measure "${MEASURE:-instructions}" --format comment
  --fail-on regression)
if [[ -n "${SCENARIOS:-}" ]]; then args+=(--scenarios "$SCENARIOS"); fi
if [[ -n "${THRESHOLD:-}" ]]; then args+=(--threshold "$THRESHOLD"); fi
read -r -a extra <<< "${DYNO_ARGS:-}"
comparison="${COMPARISON:-${RUNNER_TEMP:-/tmp}/dyno-comparison.md}"
set +e
(cd "$app" && node "$DYNO_DIR/harness/bin/dyno.js" "${args[@]}" "${extra[@]}") > "$comparison"
status=$?
set -e
publish_comparison "$comparison"
# A comparison that did not come to a table (a bad ref, an install that failed) is not commented: the job's log says why. dyno's own
# earlier comment (it starts with the marker) is replaced, so a pull request keeps one.
if [[ -n "${GH_TOKEN:-}" && -n "${PR_NUMBER:-}" && ( $status == 0 || $status == 1 ) ]]; then
  : "${GH_REPO:?}"
  marker='<!-- dyno compare -->'
  earlier="$(gh api "repos/$GH_REPO/issues/$PR_NUMBER/comments" --paginate \
    --jq ".[] | select(.body | startswith(\"$marker\")) | .id" | tail -n 1)"
  if [[ -n "$earlier" ]]; then
    gh api --method PATCH "repos/$GH_REPO/issues/comments/$earlier" -F "body=@$comparison" > /dev/null
  else
    gh api --method POST "repos/$GH_REPO/issues/$PR_NUMBER/comments" -F "body=@$comparison" > /dev/null
  fi
fi
exit "$status"
