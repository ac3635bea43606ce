/* global document, window, echarts */
// Draws report.html's heat maps, one per overview in the model (#dyno-model): frameworks × scenarios, each cell coloured by its place on
// its column's scale and labelled with its figure. Runs in the browser from file://, against the ECharts build inlined before it; it only
// draws: every figure is in the model. Tooltips are HTML, so every string from the model is escaped in them.
(function drawOverviews () {
  const model = JSON.parse(document.getElementById('dyno-model').textContent)
  const escape = (text) => String(text ?? '').replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)
  const compact = (value) => value >= 999500
    ? `${(value / 1e6).toPrecision(3)}M`
    : value >= 1000 ? `${value >= 100000 ? Math.round(value / 1000) : (value / 1000).toPrecision(3)}k` : String(Math.round(value))
  const costUs = (us) => us >= 100 ? String(Math.round(us)) : us.toPrecision(3)
  const label = (cell) => !cell
    ? ''
    : cell.value === null
      ? cell.status
      : `${compact(cell.value)}${cell.group && !cell.rankedOnCost ? ` (${cell.group})` : ''}${cell.marks.join('')}` +
        (cell.rankedOnCost && cell.cost ? ` · ${costUs(cell.cost.cpuUsPerRequest)} µs${cell.group ? ` (${cell.group})` : ''}` : '')
  const drawn = []
  for (const element of document.querySelectorAll('[data-overview]')) {
    const overview = model.overviews[Number(element.dataset.overview)]
    // The best row at the top.
    const rows = [...overview.rows].reverse()
    const data = []
    rows.forEach((row, y) => row.cells.forEach((cell, x) => {
      if (cell) data.push({ value: [x, y, cell.shade === null ? -1 : cell.shade], cell, framework: row.framework })
    }))
    element.style.height = `${140 + rows.length * 26}px`
    const chart = echarts.init(element, null, { renderer: 'canvas' })
    chart.setOption({
      animation: false,
      title: {
        text: `${overview.unit}${overview.rankedOn ? `, ranked on ${overview.rankedOn}` : ''}: each column on its own scale`,
        left: 0,
        textStyle: { fontSize: 14 }
      },
      tooltip: {
        formatter: (params) => {
          const { cell, framework, value } = params.data
          const figure = cell.value === null ? cell.status : `${cell.value.toLocaleString('en-US')} ${overview.unit}`
          return `${escape(framework)} × ${escape(overview.columns[value[0]])}<br>${escape(figure)}` +
            `${cell.group ? `, rank group ${escape(cell.group)}${cell.rankedOnCost ? ' on cost' : ''}` : ''}` +
            `${cell.marks.length ? ` ${escape(cell.marks.join(''))}` : ''}`
        }
      },
      grid: { top: 40, left: 8, right: 8, bottom: 8, containLabel: true },
      xAxis: { type: 'category', data: overview.columns, position: 'top', splitArea: { show: true }, axisLabel: { interval: 0 } },
      yAxis: { type: 'category', data: rows.map((row) => row.framework), splitArea: { show: true }, axisLabel: { interval: 0 } },
      visualMap: {
        show: false, min: 0, max: 1, dimension: 2, inRange: { color: ['#e06666', '#f6d36b', '#7cc47c'] }, outOfRange: { color: '#eeeeee' }
      },
      series: [{
        type: 'heatmap',
        data,
        label: { show: true, fontSize: 11, formatter: (params) => label(params.data.cell) },
        itemStyle: { borderColor: '#fff', borderWidth: 1 }
      }]
    })
    window.addEventListener('resize', () => chart.resize())
    drawn.push({ id: element.id, rows: rows.length, columns: overview.columns.length, cells: data.length })
  }
  window.dynoOverviewsDrawn = drawn
})()
