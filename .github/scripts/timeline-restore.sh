#!/usr/bin/env bash
# The data the timeline has accumulated: the `dyno-timeline-data` artifact of this workflow's last successful run, into DATA; none
# yet (the first run, or the artifact has expired) leaves DATA to be made new. Needs GH_TOKEN with actions: read.
set -euo pipefail

: "${DATA:?}" "${GITHUB_REPOSITORY:?}"
last="$(gh run list --repo "$GITHUB_REPOSITORY" --workflow site.yml --status success --limit 1 --json databaseId --jq '.[0].databaseId // empty')"
if [[ -z "$last" ]]; then
  echo "no earlier successful run of site.yml: the data directory starts empty"
  exit 0
fi
if ! gh run download "$last" --repo "$GITHUB_REPOSITORY" --name dyno-timeline-data --dir "$DATA"; then
  echo "::warning::run $last has no dyno-timeline-data artifact (expired?): the data directory starts empty"
  rm -rf "$DATA"
fi
