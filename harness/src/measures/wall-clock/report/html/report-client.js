/* global document, window, echarts */
// Draws report.html's charts from the model embedded in the page (#dyno-model). Runs in the browser
// from file://, against the ECharts build inlined before it; it only draws: every figure is in the model.
(function drawReport () {
  const model = JSON.parse(document.getElementById('dyno-model').textContent)
  const rendered = []

  const PALETTE = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
    '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
  const PERCENTILE_LABELS = { 100: 'max' }
  /** Line charts show this many SUTs at first (the fastest); the legend turns the others on. */
  const VISIBLE_LINE_GROUPS = 8
  const percentileLabel = (value) => PERCENTILE_LABELS[value] ?? `p${value}`
  const format = (value) => value == null ? '-' : Number(value).toLocaleString('en-US', { maximumFractionDigits: 3 })

  const baseOption = (title, extra) => Object.assign({
    animation: false,
    // A run merged from machines that differ says so on every chart, and on the picture saved from it.
    title: { text: model.mixedMachines ? `${title} (mixed machines)` : title, left: 0, textStyle: { fontSize: 14 } },
    tooltip: { trigger: 'axis', valueFormatter: format },
    legend: { type: 'scroll', top: 24, left: 0, right: 0 },
    grid: { top: 76, left: 64, right: 64, bottom: 48, containLabel: true },
    toolbox: { feature: { saveAsImage: { title: 'PNG' } } }
  }, extra)

  /**
   * How a bar that is not a figure of the framework is drawn, and its legend entry: hatched for the load
   * generator's limit, grey in a red dashed frame for runs that answered wrong.
   */
  const FLAG_STYLES = {
    'generator-bound': {
      legend: "† generator-bound: the load generator's limit, not the framework's",
      suffix: ' †',
      itemStyle: {
        opacity: 0.55,
        decal: { symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [3, 5], rotation: -Math.PI / 4, color: 'rgba(0, 0, 0, 0.45)' }
      }
    },
    'machine-limit': {
      legend: '‡ limit of this machine: the native engine, the fastest here, was generator-bound',
      suffix: ' ‡',
      itemStyle: {
        opacity: 0.55,
        decal: { symbol: 'rect', dashArrayX: [1, 0], dashArrayY: [2, 3], rotation: Math.PI / 4, color: 'rgba(0, 0, 0, 0.45)' }
      }
    },
    invalid: {
      legend: '✗ invalid: answered wrong under load, not a valid figure',
      suffix: ' ✗ invalid',
      itemStyle: { color: '#c8c8c8', borderColor: '#d62728', borderWidth: 2, borderType: 'dashed' }
    },
    disturbed: {
      legend: "⚠ disturbed: other processes or the hypervisor took a share of the SUT's or the generator's cpus while it was measured",
      suffix: ' ⚠ disturbed',
      itemStyle: { opacity: 0.6, borderColor: '#ff7f0e', borderWidth: 2, borderType: 'dotted' }
    }
  }

  /** A bar's data item: plain, or styled and labelled by its flags, and labelled with its rank group when given one. */
  function barItem (value, flags = [], rank = null) {
    if (flags.length === 0 && !rank) return value
    const itemStyle = Object.assign({}, ...flags.map((flag) => FLAG_STYLES[flag].itemStyle))
    const suffix = flags.map((flag) => FLAG_STYLES[flag].suffix).join('') + (rank ? ` (${rank})` : '')
    return {
      value,
      itemStyle,
      label: { formatter: ({ value: shown }) => format(shown) + suffix, color: flags.includes('invalid') ? '#d62728' : '#333' }
    }
  }

  /**
   * Horizontal bars per subject, one series per run, with 95% interval whiskers where the run was repeated. A rank group
   * goes into the subject's name (`fastify (2–4)`) when one run is drawn, into each bar's label when several runs share a row.
   */
  function barOption (title, axisName, { categories, series }) {
    const count = series.length
    const bandShare = 0.7
    const ranksInNames = count === 1
    const bars = series.map((entry) => ({
      name: entry.name,
      type: 'bar',
      data: entry.values.map((value, index) => barItem(value, entry.flags?.[index], ranksInNames ? null : entry.ranks[index])),
      barGap: '0%',
      barCategoryGap: `${Math.round((1 - bandShare) * 100)}%`,
      label: { show: true, position: 'right', color: '#333', formatter: ({ value }) => format(value) }
    }))
    // The flags' legend: empty scatter series (they take no bar slot) whose legend icons show the styles.
    const flagsUsed = Object.keys(FLAG_STYLES).filter((flag) => series.some((entry) => entry.flags?.some((flags) => flags.includes(flag))))
    const legendEntries = flagsUsed.map((flag) => ({
      name: FLAG_STYLES[flag].legend,
      type: 'scatter',
      symbol: 'rect',
      data: [],
      itemStyle: Object.assign({ color: '#888' }, FLAG_STYLES[flag].itemStyle)
    }))
    const whiskers = series.flatMap((entry, index) => entry.interval95.some(Boolean)
      ? [{
          name: `${entry.name} 95% interval`,
          type: 'custom',
          z: 10,
          color: '#222',
          data: entry.interval95.map((interval, category) => interval ? [interval[0], interval[1], category] : [null, null, category]),
          encode: { x: [0, 1], y: 2 },
          renderItem: (params, api) => {
            // A bar without an interval: its null comes back as NaN.
            if (!Number.isFinite(api.value(0))) return null
            const low = api.coord([api.value(0), api.value(2)])
            const high = api.coord([api.value(1), api.value(2)])
            const band = api.size([0, 1])[1]
            const barHeight = band * bandShare / count
            // ECharts stacks the bars of a horizontal category from the bottom up, series 0 lowest.
            const y = low[1] + band * bandShare / 2 - (index + 0.5) * barHeight
            const cap = barHeight * 0.3
            const style = { stroke: '#222', lineWidth: 1.5 }
            return {
              type: 'group',
              children: [
                { type: 'line', shape: { x1: low[0], y1: y, x2: high[0], y2: y }, style },
                { type: 'line', shape: { x1: low[0], y1: y - cap, x2: low[0], y2: y + cap }, style },
                { type: 'line', shape: { x1: high[0], y1: y - cap, x2: high[0], y2: y + cap }, style }
              ]
            }
          }
        }]
      : [])
    // The runs' legend on top as everywhere; the flags' legend below the axis, where it is read with the bars.
    const legend = legendEntries.length === 0
      ? undefined
      : [
          { type: 'scroll', top: 24, left: 0, right: 0, data: [...bars, ...whiskers].map((entry) => entry.name) },
          { bottom: 0, left: 0, orient: 'vertical', data: legendEntries.map((entry) => entry.name) }
        ]
    return baseOption(title, {
      ...(legend ? { legend, grid: { top: 76, left: 64, right: 64, bottom: 48 + 22 * legendEntries.length, containLabel: true } } : {}),
      tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: format },
      xAxis: { type: 'value', name: axisName, nameLocation: 'middle', nameGap: 28 },
      yAxis: {
        type: 'category',
        data: ranksInNames
          ? categories.map((category, index) => (series[0].ranks[index] ? `${category} (${series[0].ranks[index]})` : category))
          : categories,
        inverse: true
      },
      series: [...bars, ...whiskers, ...legendEntries]
    })
  }

  function lineOption (title, { xName, yName, series, logY = false, logX = false }) {
    // The lines of one SUT (p50 and its dashed p99) share a colour.
    const groups = [...new Set(series.map((entry) => entry.group ?? entry.name))]
    const colorOf = (entry) => PALETTE[groups.indexOf(entry.group ?? entry.name) % PALETTE.length]
    // Many SUTs make a tangle: the fastest few are shown, the rest one click away in the legend.
    const selected = Object.fromEntries(
      series.map((entry) => [entry.name, groups.indexOf(entry.group ?? entry.name) < VISIBLE_LINE_GROUPS])
    )
    return baseOption(title, {
      legend: { type: 'scroll', top: 24, left: 0, right: 0, selected },
      xAxis: { type: logX ? 'log' : 'value', name: xName, nameLocation: 'middle', nameGap: 28, logBase: logX ? 10 : undefined },
      yAxis: { type: logY ? 'log' : 'value', name: yName, minorSplitLine: { show: logY } },
      series: series.map((entry) => ({
        name: entry.name,
        type: 'line',
        showSymbol: entry.points.length < 30,
        color: colorOf(entry),
        lineStyle: entry.dashed ? { type: 'dashed' } : undefined,
        data: entry.points
      }))
    })
  }

  /** Text broken at spaces into lines of at most `chars` characters (a longer word keeps its own line). */
  const wrapped = (text, chars) => text.split(' ').reduce((lines, word) => {
    const last = lines[lines.length - 1]
    if (last !== undefined && last.length + 1 + word.length <= chars) lines[lines.length - 1] = `${last} ${word}`
    else lines.push(word)
    return lines
  }, []).join('\n')

  /** The x axis of a warm-up chart: seconds since the subject's first request, over its whole series. */
  const WARMUP_X_NAME = 's since the first request'

  /**
   * One subject's series as classified: on top its req/s (left axis) and p50 (right axis) per window, the throughput's change points
   * dashed and its steady start solid, the warm-up phase shaded; below, on the same seconds, the runtime's events per window as bars
   * and the collector's pause as a line. A subject without runtime events gets the top grid alone; its subtitle says why.
   * @param {object} chart the subject's warm-up chart in the model
   * @param {HTMLElement} element the chart's element
   * @returns {object} the chart's ECharts option
   */
  function warmupOption (chart, element) {
    const events = chart.events
    const heading = warmupHeading(chart, element.clientWidth)
    const grids = warmupGrids(heading.heightPx + 52, element.clientHeight, Boolean(events))
    const marks = warmupMarks(chart)
    const yAxis = [
      { type: 'value', gridIndex: 0, name: 'req/s' },
      { type: 'value', gridIndex: 0, name: 'p50 ms', position: 'right', splitLine: { show: false } }
    ]
    const series = throughputAndLatencySeries(chart, marks)
    if (events) {
      yAxis.push(...runtimeEventAxes())
      series.push(...runtimeEventSeries(events, marks))
    }
    const option = baseOption(heading.title, {
      legend: { type: 'scroll', top: heading.heightPx, left: 0, right: 0 },
      grid: grids,
      xAxis: warmupXAxes(grids, chart.endSec),
      yAxis,
      axisPointer: { link: [{ xAxisIndex: 'all' }] },
      series
    })
    option.title = titlePerLine(option.title, heading)
    return option
  }

  /**
   * A warm-up chart's title and subtitle broken into lines that fit the chart, and the height they take: the legend and the grids start
   * below them.
   * @param {{ title: string, subtitle: string }} chart @param {number} widthPx the element's
   * @returns {{ title: string, titleLines: string[], subtitleLines: string[], heightPx: number }}
   */
  function warmupHeading (chart, widthPx) {
    const width = Math.max(240, widthPx - 96)
    const title = wrapped(chart.title, Math.floor(width / 7.8))
    const titleLines = title.split('\n')
    const subtitleLines = wrapped(chart.subtitle, Math.floor(width / 5.8)).split('\n')
    return { title, titleLines, subtitleLines, heightPx: 12 + 20 * titleLines.length + 16 * subtitleLines.length }
  }

  /**
   * The grids of a warm-up chart from `topPx` down: the throughput's, over the runtime's events' where there are events.
   * @param {number} topPx @param {number} heightPx the element's @param {boolean} withEvents
   * @returns {object[]}
   */
  function warmupGrids (topPx, heightPx, withEvents) {
    const bottom = 44
    const available = Math.max(120, heightPx - topPx - bottom)
    const gap = withEvents ? 40 : 0
    const topHeight = withEvents ? Math.round((available - gap) * 0.58) : available
    const grids = [{ top: topPx, left: 64, right: 64, height: topHeight, containLabel: true }]
    if (withEvents) grids.push({ top: topPx + topHeight + gap, left: 64, right: 64, bottom, containLabel: true })
    return grids
  }

  /**
   * One x axis per grid over the subject's whole series; the lowest one is labelled.
   * @param {object[]} grids @param {number} endSec
   * @returns {object[]}
   */
  function warmupXAxes (grids, endSec) {
    return grids.map((_, gridIndex) => {
      const last = gridIndex === grids.length - 1
      return {
        type: 'value',
        gridIndex,
        min: 0,
        max: endSec,
        name: last ? WARMUP_X_NAME : '',
        nameLocation: 'middle',
        nameGap: 28,
        axisLabel: { show: last }
      }
    })
  }

  /**
   * The throughput's change points, dashed, and its steady start, solid and labelled where `labelled` says.
   * @param {{ changePointsSec: number[], steadyStartSec: number | null }} chart
   * @returns {(labelled: boolean) => object} the mark lines of a series
   */
  function warmupMarks (chart) {
    const changes = chart.changePointsSec.filter((atSec) => atSec !== chart.steadyStartSec)
      .map((atSec) => ({ xAxis: atSec, lineStyle: { type: 'dashed', color: '#888' }, label: { show: false } }))
    const steady = chart.steadyStartSec === null
      ? []
      : [{
          xAxis: chart.steadyStartSec,
          lineStyle: { type: 'solid', width: 2, color: '#3ba272' },
          label: { formatter: `steady from ${chart.steadyStartSec} s`, position: 'insideEndTop' }
        }]
    return (labelled) => ({
      symbol: 'none', silent: true, data: [...changes, ...steady.map((mark) => labelled ? mark : { ...mark, label: { show: false } })]
    })
  }

  /**
   * The top grid's series: req/s per window with the marks and the warm-up phase shaded, and p50 per window on the right axis.
   * @param {{ throughput: number[][], p50: number[][], warmupEndSec: number | null }} chart @param {(labelled: boolean) => object} marks
   * @returns {object[]}
   */
  function throughputAndLatencySeries (chart, marks) {
    return [
      {
        name: 'req/s',
        type: 'line',
        xAxisIndex: 0,
        yAxisIndex: 0,
        showSymbol: false,
        color: PALETTE[0],
        data: chart.throughput,
        markLine: marks(true),
        markArea: chart.warmupEndSec === null
          ? undefined
          : {
              silent: true,
              itemStyle: { color: 'rgba(255, 170, 0, 0.12)' },
              label: { show: true, position: 'insideTop', color: '#a60' },
              data: [[{ name: 'warm-up phase', xAxis: 0 }, { xAxis: chart.warmupEndSec }]]
            }
      },
      { name: 'p50 ms', type: 'line', xAxisIndex: 0, yAxisIndex: 1, showSymbol: false, color: PALETTE[3], data: chart.p50 }
    ]
  }

  /**
   * The lower grid's axes: the events per window, and milliseconds per window on the right.
   * @returns {object[]}
   */
  function runtimeEventAxes () {
    return [
      // Bursts of hundreds of compilations and a few collections per window share the axis: a log scale shows both.
      {
        type: 'log',
        gridIndex: 1,
        name: 'per window (log)',
        min: 0.5,
        axisLabel: { formatter: (value) => (value < 1 ? '' : format(value)) }
      },
      { type: 'value', gridIndex: 1, name: 'ms per window', position: 'right', splitLine: { show: false } }
    ]
  }

  /**
   * The lower grid's series: optimisations, deoptimisations and collections per window as bars (the first with the marks), the
   * collector's pause and the other threads' cpu as lines, each where the runtime reported it.
   * @param {{ optimized: number[][] | null, deoptimized: number[][] | null, collections: number[][] | null, gcPauseMs?: number[][],
   *   otherThreadsCpuMs?: number[][] }} events
   * @param {(labelled: boolean) => object} marks
   * @returns {object[]}
   */
  function runtimeEventSeries (events, marks) {
    const bars = [['optimisations', events.optimized, PALETTE[1]], ['deoptimisations', events.deoptimized, PALETTE[6]],
      ['collections', events.collections, PALETTE[4]]].filter(([, points]) => points !== null)
    const series = bars.map(([name, points, color], index) => ({
      name,
      type: 'bar',
      xAxisIndex: 1,
      yAxisIndex: 2,
      color,
      data: points,
      barGap: '0%',
      barCategoryGap: '25%',
      markLine: index === 0 ? marks(false) : undefined
    }))
    if (events.gcPauseMs) {
      series.push({
        name: 'GC pause ms',
        type: 'line',
        xAxisIndex: 1,
        yAxisIndex: 3,
        showSymbol: false,
        color: PALETTE[7],
        data: events.gcPauseMs
      })
    }
    // What the main thread's pauses do not show: V8's background threads (concurrent marking, compilation) on the SUT's cpu.
    if (events.otherThreadsCpuMs) {
      series.push({
        name: 'other threads cpu ms',
        type: 'line',
        xAxisIndex: 1,
        yAxisIndex: 3,
        showSymbol: false,
        color: PALETTE[9],
        lineStyle: { type: 'dotted' },
        data: events.otherThreadsCpuMs
      })
    }
    return series
  }

  /**
   * Each line a title of its own at its own height: ECharts places a title of several lines, and its subtext, unreliably.
   * @param {object} title the option's title @param {{ titleLines: string[], subtitleLines: string[] }} heading
   * @returns {object[]}
   */
  function titlePerLine (title, { titleLines, subtitleLines }) {
    return [
      ...title.text.split('\n').map((text, line) => Object.assign({}, title, { text, top: 4 + 20 * line })),
      ...subtitleLines.map((text, line) => ({
        text, left: 0, top: 8 + 20 * titleLines.length + 16 * line, textStyle: { fontSize: 12, fontWeight: 'normal', color: '#666' }
      }))
    ]
  }

  const CHARTS = {
    throughput: (section) =>
      barOption(
        `${section.scenario}: requests per second${
          section.throughput.series.some((entry) => entry.interval95.some(Boolean))
            ? ' (geometric mean of the rounds, 95% interval, rank group)'
            : ''
        }`,
        'req/s',
        section.throughput
      ),
    latencyOverTime: (section) => {
      const { series, warmupEndSec, stableAfter } = section.latencyOverTime
      const option = lineOption(`${section.scenario}: latency over time (${model.windowLabel}, p50 and p99)`, {
        xName: 's since load began',
        yName: 'ms',
        series,
        logY: true
      })
      if (option.series.length > 0) {
        // The warm-up is shaded on the first line; each SUT's stableAfterMs is a dashed mark on its p50 line.
        option.series[0].markArea = {
          silent: true,
          itemStyle: { color: 'rgba(255, 170, 0, 0.12)' },
          label: { show: true, position: 'insideTop', color: '#a60' },
          data: [[{ name: 'warm-up', xAxis: 0 }, { xAxis: warmupEndSec }]]
        }
        for (const mark of stableAfter) {
          const line = option.series.find((entry) => entry.name === `${mark.name} p50`)
          if (line) {
            line.markLine = {
              symbol: 'none',
              silent: true,
              lineStyle: { type: 'dashed' },
              label: { formatter: `stable ${mark.atSec} s` },
              data: [{ xAxis: mark.atSec }]
            }
          }
        }
      }
      return option
    },
    latencyDistribution: (section) => {
      const option = lineOption(`${section.scenario}: latency distribution (merged histograms)`, {
        xName: 'percentile',
        yName: 'ms',
        series: section.latencyDistribution.series,
        logY: true
      })
      const percentiles = [...new Set(section.latencyDistribution.series.flatMap((entry) => entry.points.map((point) => point[0])))]
      option.xAxis = { type: 'category', name: 'percentile', nameLocation: 'middle', nameGap: 28, data: percentiles.map(percentileLabel) }
      option.series = section.latencyDistribution.series.map((entry) => ({
        name: entry.name,
        type: 'line',
        data: entry.points.map((point) => point[1])
      }))
      return option
    },
    sweepThroughput: (section) =>
      lineOption(`${section.scenario}: req/s against connections`, {
        xName: 'connections',
        yName: 'req/s',
        series: section.connectionSweep.throughput,
        logX: true
      }),
    sweepP99: (section) =>
      lineOption(`${section.scenario}: p99 latency against connections`, {
        xName: 'connections',
        yName: 'ms',
        series: section.connectionSweep.p99,
        logX: true,
        logY: true
      }),
    cpu: (section) =>
      lineOption(`${section.scenario}: SUT CPU over time (% of one core)`, {
        xName: 's since load began',
        yName: '% CPU',
        series: section.resourcesOverTime.cpu
      }),
    rss: (section) =>
      lineOption(`${section.scenario}: SUT resident memory over time`, {
        xName: 's since load began',
        yName: 'MiB',
        series: section.resourcesOverTime.rss
      }),
    requestsPerCpuSec: (section) =>
      barOption(`${section.scenario}: requests per CPU-second of the SUT`, 'req / CPU-s', section.requestsPerCpuSec),
    warmup: (section, element) => warmupOption(section.warmup.charts[Number(element.dataset.subject)], element)
  }

  for (const element of document.querySelectorAll('[data-chart]')) {
    const section = model.scenarios[Number(element.dataset.section)]
    const option = CHARTS[element.dataset.chart](section, element)
    // Bar charts grow with their bars, so two dozen SUTs stay legible.
    const bars =
      option.yAxis?.type === 'category'
        ? option.yAxis.data.length * Math.max(1, option.series.filter((entry) => entry.type === 'bar').length)
        : 0
    if (bars > 10) element.style.height = `${120 + bars * 24}px`
    const chart = echarts.init(element, null, { renderer: 'canvas' })
    chart.setOption(option)
    rendered.push({ id: element.id, chart: element.dataset.chart, scenario: section.scenario, series: option.series.length })
    window.addEventListener('resize', () => chart.resize())
  }
  window.dynoRenderedCharts = rendered
})()
