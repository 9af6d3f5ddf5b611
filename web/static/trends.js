// Draws the trends page's charts with uPlot from the JSON block
// #trend-data (the page's Content-Security-Policy allows no inline
// script). Without JavaScript the page shows the same numbers as a
// table; with it, the table folds away under the charts.
(function () {
  "use strict";

  var palette = ["#0969da", "#8250df", "#1a7f37", "#bc4c00", "#cf222e", "#9a6700", "#1b7c83", "#6e7781"];

  function percent(v) { return v == null ? "-" : (v * 100).toFixed(1).replace(/\.0$/, "") + "%"; }
  function dollars(v) { return v == null ? "-" : "$" + v.toFixed(4); }
  function score(v) { return v == null ? "-" : v.toFixed(2); }

  function options(el, series, y) {
    return {
      width: Math.max(el.clientWidth, 300),
      height: 240,
      scales: { x: { time: true }, y: y.range ? { range: y.range } : { auto: true } },
      axes: [{}, { values: function (u, ticks) { return ticks.map(y.format); }, size: 60 }],
      series: [{ label: "started" }].concat(series),
      legend: { live: true },
      cursor: { drag: { x: false, y: false } }
    };
  }

  function line(label, color, format, dash) {
    return { label: label, stroke: color, width: 2, points: { show: true, size: 5 },
      value: function (u, v) { return format(v); }, dash: dash, spanGaps: false };
  }

  function draw() {
    var block = document.getElementById("trend-data");
    if (!block || typeof uPlot === "undefined") {
      return;
    }
    var d = JSON.parse(block.textContent);
    if (!d.times || d.times.length === 0) {
      return;
    }
    var charts = [];
    var threshold = d.times.map(function () { return d.threshold; });
    document.querySelectorAll(".chart[data-chart]").forEach(function (el) {
      var kind = el.getAttribute("data-chart");
      var series, data, y;
      if (kind === "pass_rate") {
        series = [line("pass rate", palette[0], percent), line("threshold", palette[4], percent, [6, 4])];
        data = [d.times, d.pass_rate, threshold];
        y = { format: percent, range: [0, 1] };
      } else if (kind === "criteria") {
        series = d.criteria.map(function (c, i) { return line(c.name, palette[i % palette.length], score); });
        data = [d.times].concat(d.criteria.map(function (c) { return c.values; }));
        y = { format: score, range: [0, 1] };
      } else if (kind === "cost") {
        series = [line("cost", palette[2], dollars)];
        data = [d.times, d.cost];
        y = { format: dollars };
      } else {
        return;
      }
      charts.push({ el: el, plot: new uPlot(options(el, series, y), data, el) });
    });
    var table = document.getElementById("trend-table");
    if (table && charts.length > 0) {
      table.open = false;
    }
    var pending = null;
    window.addEventListener("resize", function () {
      clearTimeout(pending);
      pending = setTimeout(function () {
        charts.forEach(function (c) { c.plot.setSize({ width: Math.max(c.el.clientWidth, 300), height: 240 }); });
      }, 100);
    });
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", draw);
  } else {
    draw();
  }
})();
