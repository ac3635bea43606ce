// The site's charts, drawn in the browser from the figures each page carries (site-pages.js): a line per series, the releases
// in release order (or the publish dates), the release and its date in the tooltip, each step marked with its size. Every
// string of the figures came from a data directory: it reaches the page as text only (textContent), never as markup.
/* global document, window, echarts */
(function drawCharts () {
  /** @param {string[]} lines @returns {HTMLElement} a tooltip of these lines, each set as text */
  const textLines = (lines) => {
    const box = document.createElement('div')
    for (const line of lines) box.appendChild(document.createElement('div')).textContent = line
    return box
  }
  /** A point's tooltip: its series, release (and publish date), figure; a step's mark: its series and size. */
  const tooltipOf = (item, unit) => {
    const point = item.data && item.data.point
    if (!point) return textLines([String(item.seriesName), `step: ${String(item.value)}`])
    return textLines([
      String(item.seriesName),
      `${point.at}${point.publishedAt ? ` (published ${String(point.publishedAt).slice(0, 10)})` : ''}`,
      `${typeof point.value === 'number' ? point.value.toLocaleString('en-US') : '-'} ${unit}`,
      ...(point.settled ? [] : ['its windows had not settled'])
    ])
  }
  const charts = JSON.parse(document.getElementById('site-charts').textContent)
  const drawn = []
  for (const element of document.querySelectorAll('[data-chart-id]')) {
    const chart = charts.find((candidate) => candidate.id === element.dataset.chartId)
    if (!chart) continue
    const instance = echarts.init(element, null, { renderer: 'canvas' })
    const byCategory = chart.axis === 'category'
    instance.setOption({
      animation: false,
      legend: { type: 'scroll', top: 0 },
      grid: { left: 70, right: 20, top: 36, bottom: 60 },
      // ECharts inserts a tooltip's string as HTML: the tooltip is built of elements whose text is set, so that no name from the
      // data (a framework, a runtime, a release) is ever read as markup.
      tooltip: { trigger: 'item', formatter: (item) => tooltipOf(item, chart.unit) },
      xAxis: byCategory
        ? { type: 'category', data: chart.categories, axisLabel: { rotate: 45 }, name: 'release', nameLocation: 'middle', nameGap: 44 }
        : { type: 'time', name: 'published', nameLocation: 'middle', nameGap: 30 },
      // From zero, whatever the figures: an axis that starts near the data makes a change of a few percent look like a cliff (the
      // system calls of express spanned 2.13 to 2.28 calls). The size of a change is the step table's, with its interval.
      yAxis: { type: 'value', min: 0, name: chart.unit },
      series: chart.series.map((series) => ({
        name: series.name,
        type: 'line',
        connectNulls: false,
        symbol: 'circle',
        symbolSize: 7,
        data: series.points.map((point) => ({
          value: byCategory ? [point.at, point.value] : [point.publishedAt, point.value],
          point,
          // A count whose windows had not settled is drawn hollow; a settled one filled.
          ...(point.settled ? {} : { symbol: 'emptyCircle', symbolSize: 10, itemStyle: { borderType: 'dashed' } })
        })),
        markPoint: {
          symbol: 'pin',
          symbolSize: 44,
          label: { fontSize: 10 },
          data: series.marks.map((mark) => {
            const point = series.points.find((candidate) => candidate.at === mark.at)
            return point ? { coord: byCategory ? [point.at, point.value] : [point.publishedAt, point.value], value: mark.label } : null
          }).filter(Boolean)
        }
      }))
    })
    drawn.push(instance)
  }
  window.addEventListener('resize', () => { for (const instance of drawn) instance.resize() })
  document.documentElement.dataset.chartsDrawn = String(drawn.length)
})()
