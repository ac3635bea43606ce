#!/usr/bin/env bash
# The data the timeline has accumulated: the `dyno-timeline-data` artifact of this workflow's last successful run on the default
# branch of this repository itself, started by its schedule, by hand or by a push (never a pull request's run, never a fork's
# branch, whose artifact anyone could have made), into DATA; none yet (the first run, or the artifact has expired) leaves DATA to
# be made new. What is restored is checked before anything is appended to it or published: it holds nothing but dataset.json and
# records/<24 hex digits>.json, each a regular file, and dyno reads it back as it reads any data directory (layout, every record's
# schema, release and id); anything else fails the step. Needs GH_TOKEN with actions: read, and jq.
set -euo pipefail

: "${DATA:?}" "${GITHUB_REPOSITORY:?}"
branch="$(gh api "repos/$GITHUB_REPOSITORY" | jq -r '.default_branch // empty')"
if [[ -z "$branch" ]]; then
  echo "::error::the default branch of $GITHUB_REPOSITORY could not be read"
  exit 1
fi
last="$(gh api "repos/$GITHUB_REPOSITORY/actions/workflows/site.yml/runs?branch=$branch&status=success&per_page=100" | jq -r \
  --arg repo "$GITHUB_REPOSITORY" --arg branch "$branch" '
  [.workflow_runs[]
    | select(.conclusion == "success" and .head_branch == $branch
      and .repository.full_name == $repo and .head_repository.full_name == $repo
      and (.event == "schedule" or .event == "workflow_dispatch" or .event == "push"))]
  | sort_by(.created_at) | last | .id // empty')"
if [[ -z "$last" ]]; then
  echo "no earlier successful run of site.yml on $branch: the data directory starts empty"
  exit 0
fi
if ! gh run download "$last" --repo "$GITHUB_REPOSITORY" --name dyno-timeline-data --dir "$DATA"; then
  echo "::warning::run $last has no dyno-timeline-data artifact (expired?): the data directory starts empty"
  rm -rf "$DATA"
  exit 0
fi

refuse() {
  echo "::error::the dyno-timeline-data artifact of run $last $1: nothing is appended to it or published"
  rm -rf "$DATA"
  exit 1
}
while IFS= read -r -d '' path; do
  name="${path#"$DATA"/}"
  if [[ -L "$path" ]]; then refuse "holds $name, a symbolic link"; fi
  if [[ -d "$path" && "$name" == records ]]; then continue; fi
  if [[ -f "$path" && ( "$name" == dataset.json || "$name" =~ ^records/[0-9a-f]{24}\.json$ ) ]]; then continue; fi
  refuse "holds $name, which dyno does not write there"
done < <(find "$DATA" -mindepth 1 -print0)
check="$(mktemp -d)"
if ! node harness/bin/dyno.js site "$DATA" --out "$check/site"; then
  rm -rf "$check"
  refuse "is not a data directory dyno reads back (above)"
fi
rm -rf "$check"
echo "restored $(find "$DATA/records" -name '*.json' 2>/dev/null | wc -l) records from run $last on $branch"
