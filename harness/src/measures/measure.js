// @ts-check
// What a measure is: one way dyno measures a cell (wall clock under load; instructions counted), an object in a folder of its own, listed
// once in index.js. Everything that differs between measures is a field or a method of it: the run's settings and their checks, how a cell
// is measured and how long it takes, the checks a result gets, what a comparison reads and how it is written, the report's sections. No
// caller asks which measure it holds.

/**
 * @typedef {import('@dyno/scenarios').Scenario} Scenario
 * @typedef {import('@dyno/scenarios').LoadProfile} LoadProfile
 * @typedef {import('../records/result-record.js').ResultRecord} ResultRecord
 * @typedef {import('../records/result-record.js').LoadSettings} LoadSettings
 * @typedef {import('../records/outcome.js').Outcome} Outcome
 * @typedef {import('../records/read-run.js').RunData} RunData
 * @typedef {import('./cell-context.js').RunContext} RunContext
 * @typedef {import('./cell-context.js').Cell} Cell
 * @typedef {import('./cell-context.js').SutProbes} SutProbes
 * @typedef {import('../subjects/sut-process/start-sut.js').RunningSut} RunningSut
 *
 * @typedef {object} Measure twelve members: what it is called and says, how a run of it is planned, loaded and scheduled, how a cell is
 *   warmed, measured and judged, and how its results merge, compare and are reported
 * @property {string} name as `--measure` takes it and a result records it (`load.measure`)
 * @property {MeasureAbout} about what it says of itself and of a run of it
 * @property {readonly import('../platform/options/option-spec.js').OptionSpec[]} options the options of its own (`--count-warmup`), which
 *   every command that runs it takes
 * @property {MeasurePlan} plan a run's settings, rounds and expected time
 * @property {(named: import('../load/engines/engine.js').Engine | null, scenarios: Scenario[]) =>
 *   import('../load/engines/engine.js').Engine | null} ownEngine the engine it drives itself (the named one, or its own default), or null:
 *   the run's engine loads its cells, as named or chosen from the machine's calibration (a named engine that cannot speak the scenarios is
 *   refused here, a DynoError naming both)
 * @property {CellSchedule} schedule how the cells of a run are laid out in time and over SUT processes
 * @property {(context: import('./wall-clock/launch-warmup.js').WarmingContext, scenarios: Scenario[], connections: number,
 *   running: RunningSut) =>
 *   Promise<import('./wall-clock/launch-warmup.js').LaunchWarmup | null>} warmLaunch warms a fresh launch over the routes of the cells
 *   it is to serve, before the first is measured; null: nothing to warm (each cell warms its own launch, or none was asked)
 * @property {(context: RunContext, cell: Cell, running: RunningSut, record: ResultRecord, probes: SutProbes) => Promise<Outcome>}
 *   measureCell measures a verified cell on its running SUT and fills the record with what it measured
 * @property {ResultJudging} judge what a result is checked for once measured
 * @property {{ machine: (runs: RunData[]) => Record<string, string>, acrossMachines: 'never' | 'when-allowed', differing: string }} merging
 *   what must match between the machines of the parts of one plan (`dyno merge`): each part's machine as its figures depend on it, whether
 *   parts of machines that differ may merge (only with `--allow-mixed-machines`, or never), and what the refusal says
 * @property {import('./comparison-spec.js').ComparisonSpec & ComparisonUse} comparison what a comparison of two sides of this measure
 *   reads and writes, and how the comparison commands use the measure
 * @property {MeasureReport} report what it shows of a run: a result's line, the terminal's table, report.md and report.html
 *
 * @typedef {object} MeasureAbout
 * @property {string} help what `--measure <name>` measures, for help and docs/cli.md
 * @property {string} unit what one figure of it is, in a sentence: `req/s and latency under load`, `instructions per request`
 * @property {(run: { load: LoadSettings, profile: string, engineReason: string | null }) => string} run the run in a few words, for the
 *   line a run starts with
 * @property {(run: { sutHostSharesProcesses: boolean }) => string[]} notes lines for the user before the first cell
 *
 * @typedef {object} MeasurePlan
 * @property {(profile: LoadProfile) => number} defaultRepeats the rounds of a run that gives no `--repeats`
 * @property {(options: import('./load-settings.js').SettingsInput, engine: import('../load/engines/engine.js').Engine) => LoadSettings}
 *   settings the run's load settings from its options, checked against what the engine (or the measure) can do: a DynoError naming the
 *   option
 * @property {(scenario: Scenario, load: import('../platform/options/option-values.js').PlanValues) => number} cellSec how long one cell is
 *   expected to take, from the plan alone (the run's settings, or the options they are made from)
 * @property {(run: import('./calibrations/noise/noise-plan.js').NoisePlanContext) =>
 *   Promise<import('./calibrations/noise/size-repeats.js').NoisePlan | null>} sizeRounds the rounds of a profile with a time budget whose
 *   rounds were not given, sized from the machine's measured spread; null: the profile's (a figure that does not spread between launches,
 *   or a spread that could not be measured)
 *
 * @typedef {object} CellSchedule
 * @property {(load: LoadSettings) => number} cellsAtOnce how many cells run at once: load shares the machine, so one
 * @property {boolean} sutPerCell whether each cell starts a SUT of its own; else consecutive cells of a SUT share one process, unless
 *   `--fresh-sut`
 * @property {boolean} besideOtherWork whether its figures hold whatever runs beside them (a count): compare-commits measures both sides at
 *   once, and the machine is not looked at for other programs before the first cell
 *
 * @typedef {object} ResultJudging
 * @property {(record: ResultRecord) => import('../records/result-record.js').Consistency | null} consistency whether a result agrees with
 *   itself; null: nothing to check
 * @property {(record: ResultRecord) => import('../platform/resources/interference-sampler.js').InterferenceReport | null} interference
 *   what other processes took of the cpus while the cell was measured, as its disturbance is judged (wall-clock: its measured phase's;
 *   capacity: its most disturbed phase's); null: nothing was sampled, the cell is not judged
 * @property {(record: ResultRecord) => Omit<import('../judging/disturbance.js').EarlierAttempt, 'detail'>} attempt what a disturbed
 *   result that is measured again keeps of itself among the earlier attempts of the one measured in its place
 *
 * @typedef {object} ComparisonUse how the comparison commands use the measure
 * @property {{ preference: number, when: string, unavailableHere: () => string | null }} gate how they pick their measure when none is
 *   given: the most preferred (lowest) that can measure here; when: where it can, in words; unavailableHere: why it cannot here, as the
 *   line a command prints when it falls back, or null
 * @property {{ rounds: (profile: LoadProfile) => number, scenarios: (profile: LoadProfile) => string[] | null }} defaults what
 *   compare-commits and compare-versions measure with it unless told: their rounds, and their scenarios (null: the profile's)
 * @property {(profile: string) => string} comparedBy how they name what they measured: `profile quick`
 *
 * @typedef {ReportSections & TerminalLines} MeasureReport what it shows of a run
 *
 * @typedef {object} TerminalLines
 * @property {(record: ResultRecord) => string} resultLine the figures of one result for its line as it is written ('' when none)
 * @property {((records: ResultRecord[]) => string) | null} terminalTable what the terminal prints of a run at its end (capacity: its
 *   capacity table); null: the summary table of req/s and latency, and with repeats the table of their rounds
 *
 * @typedef {object} ReportSections its part of report.md and report.html, between a report's title and its environment
 * @property {(run: RunData) => import('./overview.js').Overview | null} overview the run at a glance, frameworks × scenarios, which
 *   opens report.md and report.html and ends `dyno run`'s output (null: the measure has none)
 * @property {(run: RunData, context: { mixed: string | null }) => string[]} markdownBody report.md's lines of the run (mixed: what a run
 *   merged from machines that differ says over every table)
 * @property {(run: RunData) => string} loadLine how the run was loaded, for the environment's `load:` line
 * @property {(runs: RunData[], context: { mixed: string }) => { scenarios: unknown[], windowLabel: string, sections: string, scripts: URL[]
 *   }} html report.html's sections as HTML (every string from data escaped), the model of each scenario its drawing scripts read, and those
 *   scripts
 * @property {(runs: RunData[], labels: string[], context: { mixed: string[] }) => string[]} sideBySide side-by-side.md's lines of several
 *   runs
 */

export {}
