// Draws the usage chart from the JSON the page embeds (#usage-data) with uPlot (served from its npm
// package). Plain script, no build step; it runs after uPlot (both deferred, in order).
(function () {
  const el = document.getElementById("usage-chart");
  const src = document.getElementById("usage-data");
  if (!el || !src || typeof uPlot === "undefined") return;
  const data = JSON.parse(src.textContent);
  const colors = ["#6d4aff", "#e0567a", "#1f9d8b", "#e69b00", "#3b82f6", "#8b5cf6", "#10b981"];
  const xs = data.days.map((d) => Date.parse(d + "T12:00:00Z") / 1000);
  const fmt = data.unit === "usd" ? (v) => "$" + v.toFixed(2) : (v) => (v >= 1000 ? (v / 1000).toFixed(1) + "k" : String(v));
  const bars = uPlot.paths.bars({ size: [0.7, 40] });
  // The box's inner width: clientWidth counts its padding, and a chart that wide would stick out on a phone.
  const innerWidth = () => {
    const cs = window.getComputedStyle(el);
    return Math.max(200, el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
  };
  const opts = {
    width: innerWidth(),
    height: 260,
    // Bars and lines start at zero, so days and roles compare by height.
    scales: { x: { time: true }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    // One tick per day with data, shown as DD.MM (the page's days are local calendar days).
    axes: [
      { splits: () => xs, values: (u, vals) => vals.map((v) => new Date(v * 1000).toISOString().slice(5, 10).split("-").reverse().join(".")) },
      { values: (u, vals) => vals.map(fmt), size: 56 },
    ],
    legend: { live: false },
    series: [{}].concat(
      data.series.map((s, i) => ({
        label: s.role,
        stroke: colors[i % colors.length],
        fill: colors[i % colors.length] + "55",
        width: 2,
        paths: data.days.length < 3 ? bars : undefined,
        points: { show: true, size: 6 },
        value: (u, v) => (v == null ? "–" : fmt(v)),
      })),
    ),
  };
  const chart = new uPlot(opts, [xs].concat(data.series.map((s) => s.values)), el);
  el.dataset.rendered = "true";
  window.addEventListener("resize", () => chart.setSize({ width: innerWidth(), height: 260 }));
})();
