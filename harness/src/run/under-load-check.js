// @ts-check
/**
 * A SUT that breaks under load never gets a clean number: any response with a wrong body or a
 * status other than the scenario's makes the run invalid. Returns the reason, or null when clean.
 * @param {Partial<Record<'warmup' | 'measure', import('../load/load-plan.js').PhaseSummary | null>>} phases
 * @param {number} expectedStatus
 * @returns {string | null}
 */
export function underLoadProblems (phases, expectedStatus) {
  const problems = []
  for (const [name, summary] of Object.entries(phases)) {
    if (!summary) continue
    if (summary.mismatches > 0) problems.push(`${name}: ${summary.mismatches} of ${summary.requests} responses had a body that does not match the scenario`)
    if (summary.unexpectedStatus > 0) {
      const others = Object.entries(summary.statusCounts).filter(([status]) => status !== String(expectedStatus))
        .map(([status, count]) => `${count}× ${status}`).join(', ')
      problems.push(`${name}: ${summary.unexpectedStatus} of ${summary.requests} responses had a status other than ${expectedStatus} (${others})`)
    }
  }
  return problems.length === 0 ? null : `DYNO_ERR_UNEXPECTED_UNDER_LOAD: ${problems.join('; ')}`
}
