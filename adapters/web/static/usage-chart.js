// Draws the usage chart from the JSON the page embeds (#usage-data) with uPlot (served from its npm
// package). Plain script, no build step; it runs after uPlot (both deferred, in order).
(function () {
  const el = document.getElementById("usage-chart");
  const src = document.getElementById("usage-data");
  if (!el || !src || typeof uPlot === "undefined") return;
  const data = JSON.parse(src.textContent);
  // Dates and numbers in the page's language (its <html lang>), not the browser's.
  const lang = document.documentElement.lang || "en";
  const colors = ["#6d4aff", "#e0567a", "#1f9d8b", "#e69b00", "#3b82f6", "#8b5cf6", "#10b981"];
  const xs = data.days.map((d) => Date.parse(d + "T12:00:00Z") / 1000);
  const money = new Intl.NumberFormat(lang, { style: "currency", currency: "USD", maximumFractionDigits: 2 });
  const count = new Intl.NumberFormat(lang, { notation: "compact", maximumFractionDigits: 1 });
  const fmt = data.unit === "usd" ? (v) => money.format(v) : (v) => count.format(v);
  const dayName = new Intl.DateTimeFormat(lang, { day: "numeric", month: "short", timeZone: "UTC" });
  // Stacked bars: each role's bar starts where the one below ends, so no area hides another. uPlot draws
  // the series in order, so the running totals go from the top role's (tallest) to the bottom role's.
  const roles = data.series;
  const totals = roles.map((_, i) => data.days.map((_, d) => roles.slice(0, i + 1).reduce((sum, s) => sum + s.values[d], 0)));
  const order = roles.map((_, i) => roles.length - 1 - i);
  // Day labels at least this far apart; with many days only every k-th is named (the newest always).
  const LABEL_PX = 64;
  const shownDays = (u) => {
    const width = u.bbox.width / (window.devicePixelRatio || 1);
    const every = Math.max(1, Math.ceil((xs.length * LABEL_PX) / Math.max(width, 1)));
    return xs.filter((_, i) => (xs.length - 1 - i) % every === 0);
  };
  const bars = uPlot.paths.bars({ size: [0.7, 40] });
  // The box's inner width: clientWidth counts its padding, and a chart that wide would stick out on a phone.
  const innerWidth = () => {
    const cs = window.getComputedStyle(el);
    return Math.max(200, el.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight));
  };
  const opts = {
    width: innerWidth(),
    height: 260,
    // Half a day of room on each side, so the first and the last bar are whole; bars start at zero.
    scales: { x: { time: true, range: (u, min, max) => [min - 43200, max + 43200] }, y: { range: (u, min, max) => [0, max > 0 ? max * 1.1 : 1] } },
    axes: [
      {
        splits: shownDays,
        values: (u, vals) => {
          const labels = vals.map((v) => dayName.format(new Date(v * 1000)));
          el.dataset.dayLabels = JSON.stringify(labels);
          return labels;
        },
      },
      { values: (u, vals) => vals.map(fmt), size: 64 },
    ],
    legend: { live: false },
    series: [{}].concat(
      order.map((i) => ({
        label: roles[i].role,
        stroke: colors[i % colors.length],
        fill: colors[i % colors.length],
        width: 1,
        paths: bars,
        points: { show: false },
      })),
    ),
  };
  const chart = new uPlot(opts, [xs].concat(order.map((i) => totals[i])), el);
  el.dataset.rendered = "true";
  window.addEventListener("resize", () => chart.setSize({ width: innerWidth(), height: 260 }));
})();
