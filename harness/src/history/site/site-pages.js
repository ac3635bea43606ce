// @ts-check
// The pages of the site, as HTML text: the index, a page per framework and per runtime, and the suite run's report when one is
// given. Every figure from data is written as text (escaped); each page carries only its own part of the model, for the charts.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { explanationPageOf } from './step-explanations.js'

const require = createRequire(import.meta.url)
export const ECHARTS_VERSION = require('echarts/package.json').version

/** @param {unknown} text */
const escapeHtml = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
/** @param {number | null} value */
const figure = (value) => value === null ? '-' : value.toLocaleString('en-US', { maximumFractionDigits: 3 })

/** How every figure of the site was made, on every page. */
const METHOD = 'Every figure is a count, not a timing: the SUT answers the scenario under valgrind\'s callgrind, its warm-up ' +
  'uncounted, then ' +
  'counted window by window; program instructions are those that were not V8\'s collector\'s, and system calls are counted by strace on ' +
  'the same requests. A count does not depend on the speed of the machine. A line holds the counts made with one set of counting ' +
  'settings by one version of dyno\'s counting code; counts made otherwise are a line of their own. A step is a change between ' +
  'neighbouring releases whose 95% interval (Hodges–Lehmann, over the windows) excludes no change and whose size passes the pair\'s own ' +
  'window-to-window spread (at least 0.5%). Each point links its raw record.'

/**
 * @typedef {ReturnType<typeof import('./site-model.js').siteModel>} SiteModel
 * @typedef {{ title: string, body: string, charts: import('./site-model.js').SiteChart[], model: SiteModel, suite: boolean,
 *   generatedAt: string }} PageParts
 */

/** @param {PageParts} parts @returns {string} */
function page ({ title, body, charts, model, suite, generatedAt }) {
  const nav = [
    '<a href="index.html">Overview</a>',
    ...model.frameworks.map((framework) => `<a href="${framework.page}">${escapeHtml(framework.name)}</a>`),
    ...model.runtimes.map((runtime) => `<a href="${runtime.page}">${escapeHtml(runtime.name)}</a>`),
    ...(suite ? ['<a href="suite.html">Latest suite run</a>'] : [])
  ].join('\n')
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)} · dyno time machine</title>
<link rel="stylesheet" href="assets/site.css">
</head>
<body>
<a class="skip" href="#main">Skip to the figures</a>
<header><p class="brand">dyno time machine</p><nav aria-label="Pages">${nav}</nav></header>
<main id="main">
<h1>${escapeHtml(title)}</h1>
${body}
</main>
<footer><h2>How these figures were made</h2><p>${escapeHtml(METHOD)}</p>
<p>Written by dyno at ${escapeHtml(generatedAt)} from ${model.records} records (<a href="records/">the raw records</a>, ` +
    `docs/timeline.md for their layout). Charts: ECharts ${escapeHtml(ECHARTS_VERSION)}, served with the site.</p></footer>
<script id="site-charts" type="application/json">${JSON.stringify(charts).replace(/</g, '\\u003c')}</script>
<script src="assets/echarts.min.js"></script>
<script src="assets/site-client.js"></script>
</body>
</html>
`
}

/** Every chart's value axis starts at zero (site-client.js): a step's size is read from the steps table, not from the slope. */
const AXIS_NOTE = 'the axis starts at zero; a step\'s size and interval are in the steps table'

/** @param {import('./site-model.js').SiteChart} chart @returns {string} the chart, and its figures as a table for keyboards and readers */
function chartBlock (chart) {
  const ats =
    chart.axis === 'category' ? chart.categories : [...new Set(chart.series.flatMap((series) => series.points.map((point) => point.at)))]
  const rows = chart.axis === 'category'
    ? ats.map((at) => `<tr><th scope="row">${escapeHtml(at)}</th>${chart.series.map((series) => {
      const point = series.points.find((candidate) => candidate.at === at)
      return `<td>${point ? `<a href="records/${point.recordId}.json">${figure(point.value)}</a>` : '-'}</td>`
    }).join('')}</tr>`)
    : chart.series.flatMap((series) => series.points.map((point) => '<tr><th ' +
      `scope="row">${escapeHtml(series.name)} ${escapeHtml(point.at)}` +
      `</th><td>${escapeHtml(point.publishedAt?.slice(0, 10))}</td><td><a ` +
        `href="records/${point.recordId}.json">${figure(point.value)}</a></td></tr>`))
  const head = chart.axis === 'category'
    ? `<tr><th scope="col">release</th>${chart.series.map((series) => `<th scope="col">${escapeHtml(series.name)}</th>`).join('')}</tr>`
    : '<tr><th scope="col">release</th><th scope="col">published</th><th scope="col">figure</th></tr>'
  return `<figure>
<div class="chart" data-chart-id="${escapeHtml(chart.id)}" role="img" aria-label="${escapeHtml(`${chart.title} (${chart.unit}); the ` +
  'table below ' +
    'holds the same figures')}"></div>
<figcaption>${escapeHtml(chart.title)} (${escapeHtml(chart.unit)}; ${AXIS_NOTE})</figcaption>
<details><summary>The figures of this chart</summary><div class="scroll"><table>${head}${rows.join('\n')}</table></div></details>
</figure>`
}

/**
 * @param {{ series: string, from: string, to: string, fromId: string, toId: string, changePct: number, intervalPct: [number, number],
 *   thresholdPct: number }[]} steps
 * @param {Set<string>} explained the steps' pages written
 */
function stepTable (steps, explained) {
  if (steps.length === 0) return '<p>No step: no neighbouring pair of counts on these lines differs beyond its own spread.</p>'
  return '<div class="scroll"><table><tr><th scope="col">line</th><th scope="col">from</th><th scope="col">to</th><th ' +
    'scope="col">change</th>' +
    '<th scope="col">95% interval</th><th scope="col">threshold</th><th scope="col">why</th></tr>' +
    steps.map((step) => `<tr><td>${escapeHtml(step.series)}</td><td>${escapeHtml(step.from)}</td><td>${escapeHtml(step.to)}</td>` +
      `<td>${step.changePct > 0 ? '+' : ''}${step.changePct}%</td><td>${step.intervalPct[0]}% to ${step.intervalPct[1]}%</td>` +
      `<td>±${step.thresholdPct}%</td><td>${whyLink(step, explained)}</td></tr>`).join('\n') + '</table></div>'
}

/**
 * @param {{ fromId: string, toId: string }} step @param {Set<string>} explained
 * @returns {string} the link to the step's explanation, or why there is none
 */
function whyLink (step, explained) {
  const page = explanationPageOf(step)
  return explained.has(page)
    ? `<a href="${page}">by function and layer</a>`
    : '<span title="a count on either side was made before dyno kept functions, or not on Node">not kept</span>'
}

/**
 * Each release's figures on the Node releases it was counted on, and the steps between them.
 * @param {SiteModel['nodeSteps']} lines @param {Set<string>} explained the steps' pages written
 * @returns {string}
 */
function nodeStepTable (lines, explained) {
  if (lines.length === 0) return '<p>No release was counted on two Node releases.</p>'
  return '<div class="scroll"><table><tr><th scope="col">release</th><th scope="col">scenario</th><th scope="col">program ' +
    'instructions per request, by Node</th><th scope="col">steps</th></tr>' +
    lines.map((line) => `<tr><td>${escapeHtml(line.framework)}@${escapeHtml(line.release)}</td><td>${escapeHtml(line.scenario)}</td>` +
      `<td>${line.points
        .map((point) => `<a href="records/${point.recordId}.json">Node ${escapeHtml(point.at)}: ${figure(point.value)}</a>`)
        .join('<br>')}</td><td>${line.steps
        .map((step) => `${escapeHtml(step.from)} → ${escapeHtml(step.to)}: ${step.changePct > 0 ? '+' : ''}${step.changePct}% ` +
          `(${step.intervalPct[0]}% to ${step.intervalPct[1]}%; why: ${whyLink(step, explained)})`)
        .join('<br>') || 'none'}</td></tr>`).join('\n') +
    '</table></div>'
}

/**
 * @param {SiteModel} model @param {{ suite: boolean, generatedAt: string, explained: Set<string> }} context explained: the steps'
 *   explanation pages written (step-explanations.js)
 * @returns {{ file: string, html: string }[]}
 */
export function sitePages (model, context) {
  const pages = []
  for (const framework of model.frameworks) {
    const charts = framework.scenarios.flatMap((scenario) => scenario.charts)
    const body = framework.scenarios.map((scenario) => `<section><h2>${escapeHtml(scenario.name)}</h2>
<div class="charts">${scenario.charts.map(chartBlock).join('\n')}</div>
<h3>Steps along its releases</h3>${stepTable(scenario.steps, context.explained)}
<h3>Steps along Node releases, release by release</h3>${nodeStepTable(model.nodeSteps.filter((line) =>
      line.framework === framework.name && line.scenario === scenario.name), context.explained)}
<h3>Counts whose windows had not settled</h3>${scenario.unsettled.length === 0
      ? '<p>None: every count\'s windows lie within 10% of their median.</p>'
      : '<p>A window of each lies more than 10% from the median of its windows: the first ones still holding the runtime\'s compilation, ' +
        'or one holding work the others do not (a collection). The figure is what this sequence of requests cost, not what a steady ' +
        'request costs, and a change between two of them is called only beyond their own wide spread. Drawn hollow.</p>' +
        '<div class="scroll"><table><tr><th scope="col">release</th><th scope="col">line</th><th scope="col">program instructions ' +
          'per request, ' +
        'window by window</th></tr>' + scenario.unsettled.map((row) => '<tr><td><a ' +
          `href="records/${row.recordId}.json">${escapeHtml(row.release)}</a>` +
          `</td><td>${escapeHtml(row.series)}</td><td>${row.windows.map(figure).join(', ')}</td></tr>`).join('\n') + '</table></div>'}
<h3>Releases not counted</h3>${scenario.notCounted.length === 0
      ? '<p>None: every release of these lines was counted.</p>'
      : '<div class="scroll"><table><tr><th scope="col">release</th><th scope="col">line</th><th scope="col">status</th><th ' +
        'scope="col">reason</th></tr>' +
        scenario.notCounted.map((row) => `<tr><td><a href="records/${row.recordId}.json">${escapeHtml(row.release)}</a></td>` +
          `<td>${escapeHtml(row.series)}</td><td>${escapeHtml(row.status)}</td><td ` +
            `class="reason">${escapeHtml(row.reason)}</td></tr>`).join('\n') +
        '</table></div>'}</section>`).join('\n')
    pages.push({ file: framework.page, html: page({ title: framework.name, body, charts, model, ...context }) })
  }
  for (const runtime of model.runtimes) {
    const charts = runtime.scenarios.map((scenario) => scenario.chart)
    const body = runtime.scenarios
      .map((scenario) => `<section><h2>${escapeHtml(scenario.name)}</h2>${chartBlock(scenario.chart)}</section>`)
      .join('\n')
    pages.push({ file: runtime.page, html: page({ title: `Every framework on ${runtime.name}`, body, charts, model, ...context }) })
  }
  const overview = `<p>Counts of every release measured, per framework and runtime, kept as they were made and never rewritten.</p>
<h2>Frameworks</h2><ul>${model.frameworks
    .map(
      (framework) =>
        `<li><a href="${framework.page}">${escapeHtml(framework.name)}</a>: ` +
        `${framework.scenarios
          .map(
            (scenario) =>
              `${escapeHtml(scenario.name)} (${scenario.charts[0].categories.length} releases, ` +
              `${scenario.steps.length} step${scenario.steps.length === 1 ? '' : 's'})`
          )
          .join(', ')}</li>`
    )
    .join('\n')}</ul>
<h2>Runtimes</h2><ul>${model.runtimes
    .map((runtime) => '<li><a ' + `href="${runtime.page}">${escapeHtml(runtime.name)}</a></li>`)
    .join('\n')}</ul>
<h2>Steps along Node releases, for one release of a framework</h2>${nodeStepTable(model.nodeSteps, context.explained)}`

  pages.push({
    file: 'index.html',
    html: page({
      title: 'Frameworks across ' +
    'their releases',
      body: overview,
      charts: [],
      model,
      ...context
    })
  })
  return pages
}

/** The stylesheet and the drawing script the pages share. */
export const SITE_ASSETS = Object.freeze({
  'site.css': () => readFileSync(new URL('./client/site.css', import.meta.url), 'utf8'),
  'site-client.js': () => readFileSync(new URL('./client/site-client.js', import.meta.url), 'utf8'),
  'echarts.min.js': () => readFileSync(require.resolve('echarts/dist/echarts.min.js'), 'utf8')
})
