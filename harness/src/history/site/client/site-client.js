// The site's charts, drawn in the browser from the figures each page carries (site-pages.js): a line per series, the releases
// in release order (or the publish dates), the release and its date in the tooltip, each step marked with its size.
/* global document, window, echarts */
(function drawCharts () {
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
      tooltip: {
        trigger: 'item',
        formatter: (item) => {
          const point = item.data.point
          return `${item.seriesName}<br>${point.at}${point.publishedAt ? ` (published ${point.publishedAt.slice(0, 10)})` : ''}<br>` +
            `${point.value === null ? '-' : point.value.toLocaleString('en-US')} ${chart.unit}` +
            `${point.settled ? '' : '<br>its windows had not settled'}`
        }
      },
      xAxis: byCategory
        ? { type: 'category', data: chart.categories, axisLabel: { rotate: 45 }, name: 'release', nameLocation: 'middle', nameGap: 44 }
        : { type: 'time', name: 'published', nameLocation: 'middle', nameGap: 30 },
      yAxis: { type: 'value', scale: true, name: chart.unit },
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
