// Draws the trends page's charts with uPlot from the JSON API: the
// trend's URL is #charts' data-api (GET /api/trends, web/api.md). Without
// JavaScript the page shows the same numbers as a table; with it, the
// table folds away under the charts once they are drawn.
(function () {
  "use strict";

  // The charts' colours are gavel.css's tokens, so that they follow the
  // light or the dark scheme: its lines --chart-1..8, its text --muted,
  // its grid --line.
  var style = getComputedStyle(document.documentElement);
  function token(name, fallback) { return style.getPropertyValue(name).trim() || fallback; }
  var palette = ["#2556c4", "#7c3aed", "#18794e", "#b0420b", "#c22a3a", "#8a5800", "#0f766e", "#5d6371"].map(function (c, i) {
    return token("--chart-" + (i + 1), c);
  });
  var ink = token("--muted", "#545b69"), grid = { stroke: token("--line", "#d8dce3"), width: 1 };

  function percent(v) { return v == null ? "-" : (v * 100).toFixed(1).replace(/\.0$/, "") + "%"; }
  function dollars(v) { return v == null ? "-" : v === 0 ? "$0" : "$" + (Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(4)); }
  function score(v) { return v == null ? "-" : v.toFixed(2); }

  // The axes' labels are drawn in this font (uPlot's default), measured
  // to size the y axis to its widest label.
  var axisFont = '12px system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif';
  var measure = document.createElement("canvas").getContext("2d");

  function textWidth(s) {
    measure.font = axisFont;
    return measure.measureText(s).width;
  }

  // ySize is the width of a y axis: its widest label, its ticks and a gap,
  // so that no label is clipped.
  function ySize(u, values) {
    var widest = 0;
    (values || []).forEach(function (v) { widest = Math.max(widest, textWidth(String(v))); });
    return Math.ceil(widest) + 10 + 5 + 8;
  }

  // when formats a run's start for its label: "2026-11-21 04:45".
  function when(iso) {
    var t = new Date(iso);
    if (isNaN(t)) {
      return "";
    }
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return t.getFullYear() + "-" + two(t.getMonth() + 1) + "-" + two(t.getDate()) + " " + two(t.getHours()) + ":" + two(t.getMinutes());
  }

  // The x axis is the runs in order, oldest first, evenly spaced
  // whenever they started; a tick names its run (its label, else its
  // git, else its start), and a run's label on the chart says its whole
  // name and its start.
  function options(el, d, series, y) {
    var n = d.runs.length;
    var widest = 0;
    d.runs.forEach(function (r) { widest = Math.max(widest, textWidth(r.tick)); });
    return {
      width: Math.max(el.clientWidth, 300),
      height: 240,
      scales: {
        x: { time: false, range: function () { return [0.5, n + 0.5]; } },
        y: y.range ? { range: y.range } : { auto: true }
      },
      axes: [
        { label: "run, oldest first", labelSize: 20, font: axisFont, labelFont: axisFont, stroke: ink, grid: grid, ticks: grid,
          incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000], space: Math.ceil(widest) + 16,
          values: function (u, ticks) {
            return ticks.map(function (t) { return t >= 1 && t <= n && t === Math.round(t) ? d.runs[t - 1].tick : ""; });
          } },
        { font: axisFont, stroke: ink, grid: grid, ticks: grid, values: function (u, ticks) { return ticks.map(y.format); }, size: ySize }
      ],
      series: [{ label: "run", value: function (u, v) {
        var i = Math.round(v) - 1;
        return v == null || i < 0 || i >= n ? "-" : d.runs[i].name + " · " + d.runs[i].started;
      } }].concat(series),
      legend: { live: true },
      cursor: { drag: { x: false, y: false } }
    };
  }

  function line(label, color, format, dash) {
    return { label: label, stroke: color, width: 2, points: { show: true, size: 5 },
      value: function (u, v) { return format(v); }, dash: dash, spanGaps: false };
  }

  // shortName is what a tick says of a run: its label, else its git
  // branch and commit, else its start, cut to 24 characters.
  function shortName(p) {
    var s = p.label || p.git || when(p.started);
    return s.length > 24 ? s.slice(0, 23) + "…" : s;
  }

  // costRange is the cost chart's y range: from $0 (no run costs less)
  // to a little above the dearest run, and to $1 when every run cost $0,
  // whose line then lies at the foot, not on an axis of $0 to $100.
  function costRange(u, min, max) {
    return [0, max > 0 ? max * 1.1 : 1];
  }

  // columns turns the API's trend (points of runs) into uPlot's columns:
  // the runs' order (1..N), and a value per run for each line: each run's
  // own threshold, and null for a run in which nothing was judged (no pass
  // rate: a gap, not 0%) or that did not score a criterion.
  function columns(trend) {
    var d = { threshold: [], order: [], runs: [], pass_rate: [], cost: [] };
    d.criteria = (trend.criteria || []).map(function (name) { return { name: name, values: [] }; });
    (trend.points || []).forEach(function (p, i) {
      d.order.push(i + 1);
      d.runs.push({ id: p.run_id, name: p.name || p.run_id, tick: shortName(p), started: when(p.started) });
      d.pass_rate.push(p.pass_rate == null ? null : p.pass_rate);
      d.threshold.push(p.threshold == null ? trend.threshold : p.threshold);
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
    if (d.order.length === 0) {
      return;
    }
    var charts = [];
    document.querySelectorAll(".chart[data-chart]").forEach(function (el) {
      var kind = el.getAttribute("data-chart");
      var series, data, y;
      if (kind === "pass_rate") {
        series = [line("pass rate", palette[0], percent), line("threshold", palette[4], percent, [6, 4])];
        data = [d.order, d.pass_rate, d.threshold];
        y = { format: percent, range: [0, 1] };
      } else if (kind === "criteria") {
        series = d.criteria.map(function (c, i) { return line(c.name, palette[i % palette.length], score); });
        data = [d.order].concat(d.criteria.map(function (c) { return c.values; }));
        y = { format: score, range: [0, 1] };
      } else if (kind === "cost") {
        series = [line("cost", palette[2], dollars)];
        data = [d.order, d.cost];
        y = { format: dollars, range: costRange };
      } else {
        return;
      }
      var plot = new uPlot(options(el, d, series, y), data, el);
      el.uplot = plot; // for the browser tests, which read its axes
      charts.push({ el: el, plot: plot });
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
