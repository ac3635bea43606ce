#!/usr/bin/env bash
# The records a run of site.yml appended (NEW_RECORDS: the publish job's artifact, made by this run) proposed to the repository's
# data directory DATA as a pull request to BASE_BRANCH that adds those files and nothing else: each record under records/, each
# record's function list (<id>.json.gz) under functions/. Nothing here runs what the records hold: their names and kinds are checked
# (<24 hex digits>.json or .json.gz, each a regular file, a list only beside its record, none already held with other content), then
# git and gh do the rest. Needs GH_TOKEN with contents: write and pull-requests: write.
set -euo pipefail

: "${NEW_RECORDS:?}" "${DATA:?}" "${BASE_BRANCH:?}" "${GITHUB_RUN_ID:?}"
refuse() {
  echo "::error::$1: nothing is proposed"
  exit 1
}
shopt -s nullglob dotglob
offered=("$NEW_RECORDS"/*)
adding=()
for path in "${offered[@]}"; do
  name="${path##*/}"
  if [[ "$name" =~ ^[0-9a-f]{24}\.json$ ]]; then
    where="records/$name"
  elif [[ "$name" =~ ^[0-9a-f]{24}\.json\.gz$ ]]; then
    where="functions/$name"
    [[ -f "$NEW_RECORDS/${name%.gz}" ]] || refuse "$name is the function list of no record offered with it (${name%.gz})"
  else
    refuse "$name is not a record's name (<24 hex digits>.json) or its function list's (<24 hex digits>.json.gz)"
  fi
  [[ -f "$path" && ! -L "$path" ]] || refuse "$name is not a regular file"
  if [[ -e "$DATA/$where" || -L "$DATA/$where" ]]; then
    cmp -s -- "$path" "$DATA/$where" || refuse "$name is held already with other content (a record is never rewritten)"
    continue
  fi
  adding+=("$where")
done
if (( ${#adding[@]} == 0 )); then
  echo "no record new to $DATA: nothing to propose"
  exit 0
fi

branch="timeline/records-$GITHUB_RUN_ID"
git switch --quiet -c "$branch"
mkdir -p "$DATA/records" "$DATA/functions"
for where in "${adding[@]}"; do cp -- "$NEW_RECORDS/${where#*/}" "$DATA/$where"; done
git add -- "${adding[@]/#/$DATA/}"
# What is committed is exactly the records and lists added: no other path, no change to one held.
unexpected="$(git diff --cached --name-status |
  grep -v -E "^A[[:space:]]+${DATA//./\\.}/(records/[0-9a-f]{24}\.json|functions/[0-9a-f]{24}\.json\.gz)$" || true)"
[[ -z "$unexpected" ]] || refuse "the commit would hold more than records added: $unexpected"
records_added="$(printf '%s\n' "${adding[@]}" | grep -c '^records/' || true)"
git -c user.name='github-actions[bot]' -c user.email='41898282+github-actions[bot]@users.noreply.github.com' \
  commit --quiet -m "timeline: $records_added records counted by site.yml run $GITHUB_RUN_ID"
git push --quiet origin "$branch"
gh pr create --base "$BASE_BRANCH" --head "$branch" --title "timeline: $records_added records from site.yml run $GITHUB_RUN_ID" \
  --body "Records counted by run $GITHUB_RUN_ID of site.yml and appended to \`$DATA\`: ${#adding[@]} files added under \`$DATA/records/\` and their function lists under \`$DATA/functions/\`, nothing else. The run checked each as a record read back (\`dyno timeline-add\`). A pull request opened with a workflow's token starts no workflow: close and reopen it to run dataset.yml, the base's gate, which checks them again (\`dyno timeline-check\`)."
echo "proposed $records_added records (${#adding[@]} files) on $branch"
