#!/usr/bin/env bash
# The gate of the repository's timeline dataset (DATA, data/timeline by default), run by dataset.yml in a checkout of the BASE branch
# (pull_request_target): this script, the checker and everything they install come from the base, never from the pull request.
# HEAD_SHA, the pull request's head, is fetched as git objects and read with git alone (`dyno timeline-check DATA BASE HEAD_SHA`:
# its diff since it left BASE, and each record it adds, read out of git): nothing of it is checked out, installed or run.
# A change that does not touch DATA passes at once; one that does passes only when it adds records, changes nothing else anywhere,
# and each record reads back (layout, schema, id and counting id). Run it locally the same way, in a checkout of the base:
#   BASE=origin/main HEAD_SHA=<the pull request's head commit> bash .github/scripts/dataset-check.sh
set -euo pipefail

: "${BASE:?the base commit}" "${HEAD_SHA:?the head commit of the pull request}"
DATA="${DATA:-data/timeline}"
REMOTE="${REMOTE:-origin}"
if [[ ! "$HEAD_SHA" =~ ^[0-9a-f]{40}$ ]]; then
  echo "HEAD_SHA must be a commit's 40 hex digits, got ${HEAD_SHA:0:80}" >&2
  exit 2
fi
if ! git cat-file -e "${HEAD_SHA}^{commit}" 2>/dev/null; then
  # Objects only: no checkout, no hook of the pull request's runs (git runs none on fetch).
  git fetch --no-tags --quiet "$REMOTE" "$HEAD_SHA"
fi
if ! SINCE="$(git merge-base "$BASE" "$HEAD_SHA")"; then
  echo "$HEAD_SHA shares no history with the base $BASE" >&2
  exit 2
fi
if git diff --quiet --no-ext-diff --no-textconv "$SINCE" "$HEAD_SHA" -- "$DATA"; then
  echo "no change to $DATA from $BASE to $HEAD_SHA"
  exit 0
fi
if [[ ! -d node_modules ]]; then
  if ! command -v pnpm >/dev/null 2>&1; then npm install --global pnpm@10.34.8; fi
  # The base's lockfile; what reading records back needs is JavaScript: no install script runs.
  pnpm install --frozen-lockfile --ignore-scripts
fi
node harness/bin/dyno.js timeline-check "$DATA" "$BASE" "$HEAD_SHA"
