// Draws the trends page's charts with uPlot from the JSON API: the
// trend's URL is #charts' data-api (GET /api/trends, web/api.md). Without
// JavaScript the page shows the same numbers as a table; with it, the
// table folds away under the charts once they are drawn.
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

  // columns turns the API's trend (points of runs) into uPlot's columns:
  // times in seconds, and a value per run for each line, null for a run
  // that did not score a criterion.
  function columns(trend) {
    var d = { threshold: trend.threshold, times: [], pass_rate: [], cost: [] };
    d.criteria = (trend.criteria || []).map(function (name) { return { name: name, values: [] }; });
    (trend.points || []).forEach(function (p) {
      d.times.push(Date.parse(p.started) / 1000);
      d.pass_rate.push(p.pass_rate);
      d.cost.push(p.cost_usd);
      d.criteria.forEach(function (c) {
        var v = p.criteria ? p.criteria[c.name] : undefined;
        c.values.push(v === undefined ? null : v);
      });
    });
    return d;
  }

  function load() {
    var box = document.getElementById("charts");
    if (!box || typeof uPlot === "undefined" || !window.fetch) {
      return;
    }
    fetch(box.getAttribute("data-api"), { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (res) {
        if (!res.ok) {
          throw new Error("the trend's API answered " + res.status);
        }
        return res.json();
      })
      .then(function (trend) { draw(columns(trend)); })
      .catch(function (err) { box.setAttribute("data-error", String(err)); });
  }

  function draw(d) {
    if (d.times.length === 0) {
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
    document.addEventListener("DOMContentLoaded", load);
  } else {
    load();
  }
})();
