#!/usr/bin/env bash
# A change to the repository's timeline dataset (DATA, data/timeline by default) since the commit BASE: none passes at once; one
# that touches it passes only when it adds records and changes nothing else anywhere (`dyno timeline-check`, which then reads the
# dataset back: layout, each record's schema, id and counting id). dyno is installed only when there is something to check.
set -euo pipefail

: "${BASE:?}"
DATA="${DATA:-data/timeline}"
if git diff --quiet "$BASE" HEAD -- "$DATA"; then
  echo "no change to $DATA since $BASE"
  exit 0
fi
if [[ ! -d node_modules ]]; then
  if ! command -v pnpm >/dev/null 2>&1; then npm install --global pnpm@10.34.8; fi
  # What reading records back needs is JavaScript: no install script runs (the native engine, the SUTs' native modules).
  pnpm install --frozen-lockfile --ignore-scripts
fi
node harness/bin/dyno.js timeline-check "$DATA" "$BASE"
