# The steps the action's modes share, sourced by framework-compare.sh and app-compare.sh (not run on its own).

# pnpm, and for a count (MEASURE instructions, the default) valgrind and strace for the system calls per request beside it.
install_action_tools() {
  if ! command -v pnpm >/dev/null 2>&1; then npm install --global pnpm@10.34.8; fi
  if [[ "${MEASURE:-instructions}" == "instructions" ]] && ! { command -v valgrind && command -v strace; } >/dev/null 2>&1; then
    local sudo=""
    [[ "$(id -u)" == 0 ]] || sudo="sudo"
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq valgrind strace
  fi
}

# The comparison written to the log, the job summary and the step's output `comparison`.
publish_comparison() {
  local comparison="$1"
  cat "$comparison"
  if [[ -n "${GITHUB_STEP_SUMMARY:-}" ]]; then cat "$comparison" >> "$GITHUB_STEP_SUMMARY"; fi
  if [[ -n "${GITHUB_OUTPUT:-}" ]]; then echo "comparison=$comparison" >> "$GITHUB_OUTPUT"; fi
}
