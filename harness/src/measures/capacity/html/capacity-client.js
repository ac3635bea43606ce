/* global document, window, echarts */
// Draws report.html's capacity charts from the model embedded in the page (#dyno-model): per scenario, latency from the intended send
// time (p50 dashed, p99 solid, log scale) against the offered rate, a line per launch of each SUT, the objective as horizontal lines and
// each SUT's capacity as a diamond on the objective; beside it the connections sweep: p99 against connections (both log scales), a line per
// SUT through the medians of its launches, a cross where requests failed. Runs in the browser from file://, against the ECharts build inlined before it; it
// only draws: every figure is in the model.
(function drawCapacity () {
  const model = JSON.parse(document.getElementById('dyno-model').textContent)
  const rendered = []
  const PALETTE = ['#5470c6', '#91cc75', '#fac858', '#ee6666', '#73c0de', '#3ba272', '#fc8452', '#9a60b4', '#ea7ccc',
    '#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf']
  const format = (value) => value == null ? '-' : Number(value).toLocaleString('en-US', { maximumFractionDigits: 3 })

  function chartOption (section) {
    const suts = [...new Set(section.launches.map((launch) => launch.sut))]
    const color = (sut) => PALETTE[suts.indexOf(sut) % PALETTE.length]
    const point = (step, value) => step.generatorBehind
      ? { value: [step.offeredPerSec, value], symbol: 'triangle', symbolSize: 10, itemStyle: { color: '#333' } }
      : { value: [step.offeredPerSec, value], symbol: step.held ? 'circle' : 'emptyCircle' }
    const lines = section.launches.flatMap((launch) => [['p99', 'solid'], ['p50', 'dashed']].map(([percentile, type]) => ({
      name: launch.sut,
      type: 'line',
      id: `${launch.sut} ${percentile} launch ${launch.launch}`,
      color: color(launch.sut),
      lineStyle: { type, width: percentile === 'p99' ? 2 : 1 },
      symbolSize: 5,
      data: launch.points.filter((step) => step[percentile] !== null && step[percentile] > 0).map((step) => point(step, step[percentile])),
      tooltip: { valueFormatter: format }
    })))
    const bound = section.objective.length > 0 ? section.objective[section.objective.length - 1].maxMs : null
    const capacities = section.capacities.filter((entry) => entry.capacityPerSec > 0 && bound !== null).map((entry) => ({
      name: entry.sut,
      type: 'scatter',
      id: `${entry.sut} capacity`,
      color: color(entry.sut),
      symbol: 'diamond',
      symbolSize: 16,
      z: 5,
      data: [[entry.capacityPerSec, bound]],
      label: { show: true, position: 'top', formatter: () => `${entry.sut} ${format(Math.round(entry.capacityPerSec))}` }
    }))
    const objective = {
      name: 'objective',
      type: 'line',
      id: 'objective',
      color: '#d62728',
      data: [],
      markLine: {
        symbol: 'none',
        lineStyle: { color: '#d62728', type: 'solid', width: 1.5 },
        label: { formatter: (item) => item.name, position: 'insideEndTop' },
        data: section.objective.map((term) => ({ name: term.text.replace('<=', ' ≤ '), yAxis: term.maxMs }))
      }
    }
    return {
      animation: false,
      title: {
        text: `${section.scenario}: latency against offered rate${model.mixedMachines ? ' (mixed machines)' : ''}`,
        left: 0,
        textStyle: { fontSize: 14 }
      },
      tooltip: {
        trigger: 'item',
        formatter: (item) => `${item.seriesId}<br>${format(item.value[0])} req/s offered: ${format(item.value[1])} ms`
      },
      legend: { type: 'scroll', top: 24, left: 0, right: 0, data: [...suts, 'objective'] },
      grid: { top: 76, left: 64, right: 64, bottom: 48, containLabel: true },
      toolbox: { feature: { saveAsImage: { title: 'PNG' } } },
      xAxis: { type: 'value', name: 'offered req/s', nameLocation: 'middle', nameGap: 28, scale: true },
      yAxis: { type: 'log', logBase: 10, name: 'ms from the intended send: p50 dashed, p99 solid', nameLocation: 'middle', nameGap: 44 },
      series: [...lines, ...capacities, objective]
    }
  }

  function sweepOption (section) {
    const suts = [...new Set(section.launches.map((launch) => launch.sut))]
    const color = (sut) => PALETTE[Math.max(0, suts.indexOf(sut)) % PALETTE.length]
    const series = section.sweep.map((row) => ({
      name: row.sut,
      type: 'line',
      id: `${row.sut} sweep`,
      color: color(row.sut),
      lineStyle: { width: 2 },
      data: row.levels.filter((level) => level.p99Ms !== null && level.p99Ms > 0).map((level) => ({
        value: [level.connections, level.p99Ms, level.requestsPerSec, level.failures],
        symbol: level.failures > 0 ? 'path://M0,0L10,10M10,0L0,10' : 'circle',
        symbolSize: level.failures > 0 ? 14 : 6,
        itemStyle: level.failures > 0 ? { borderColor: '#d62728', borderWidth: 2 } : undefined
      }))
    }))
    return {
      animation: false,
      title: {
        text: `${section.scenario}: p99 against connections, closed loop${model.mixedMachines ? ' (mixed machines)' : ''}`,
        left: 0,
        textStyle: { fontSize: 14 }
      },
      tooltip: {
        trigger: 'item',
        formatter: (item) => `${item.seriesName} at ${format(item.value[0])} connections<br>p99 ${format(item.value[1])} ms, ` +
          `${format(item.value[2])} req/s${item.value[3] > 0 ? `<br>${format(item.value[3])} requests failed` : ''}`
      },
      legend: { type: 'scroll', top: 24, left: 0, right: 0, data: section.sweep.map((row) => row.sut) },
      grid: { top: 76, left: 64, right: 64, bottom: 48, containLabel: true },
      toolbox: { feature: { saveAsImage: { title: 'PNG' } } },
      xAxis: { type: 'log', logBase: 10, name: 'connections', nameLocation: 'middle', nameGap: 28 },
      yAxis: { type: 'log', logBase: 10, name: 'p99 ms from each send (median of launches)', nameLocation: 'middle', nameGap: 44 },
      series
    }
  }

  /**
   * Draws every element marked `data-<kind>-chart` with its scenario's option and records what was drawn, for the tests.
   * @param {string} kind @param {(section: object) => object} optionOf @param {(section: object) => object} figuresOf
   */
  function drawAll (kind, optionOf, figuresOf) {
    for (const element of document.querySelectorAll(`[data-${kind}-chart]`)) {
      const section = model.scenarios[Number(element.getAttribute(`data-${kind}-chart`))]
      const chart = echarts.init(element, null, { renderer: 'canvas' })
      const option = optionOf(section)
      chart.setOption(option)
      rendered.push({ id: element.id, chart: kind, scenario: section.scenario, series: option.series.length, ...figuresOf(section) })
      window.addEventListener('resize', () => chart.resize())
    }
  }

  drawAll('sweep', sweepOption, (section) => ({
    levels: Math.max(0, ...section.sweep.map((row) => row.levels.length)),
    failing: section.sweep.filter((row) => row.failuresFrom !== null).length
  }))
  drawAll('capacity', chartOption, (section) => ({
    capacities: section.capacities.length,
    objectiveLines: section.objective.length
  }))
  window.dynoRenderedCharts = rendered
})()
