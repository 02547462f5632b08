// A `chartView` (ChartView): line, bar and scatter series drawn as SVG, with no outside
// library. The cached props hold the `series` rows and the flat, keyed `points` rows
// (PROTOCOL.md: Charts); a patch's ops are already applied to them when `ops` runs, so
// the chart only schedules a redraw: one per animation frame, however many patches
// arrived (a live chart streams a point every few hundred ms).
//
// Accessible: the SVG is role="img" with a summary as its name (series, point counts,
// latest values, ranges), and a "Data table" disclosure holds the same numbers in a real
// <table>, kept in step while it is open. Colours: the series' own, else the theme's
// --bd-chart-1…6 (bindery.css), so both themes work. Width follows the container.
import { h, cssColor, nextId } from "../dom.js";
import { commonProps } from "../registry.js";

const SVG = "http://www.w3.org/2000/svg";
const PALETTE = 6;

/** An SVG element with attributes and children. */
function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "text") el.textContent = v;
    else el.setAttribute(k, String(v));
  }
  el.append(...children);
  return el;
}

const finite = (v) => typeof v === "number" && Number.isFinite(v);
// Loops, not Math.min(...list): a long series would overflow the argument stack.
const least = (list) => list.reduce((a, b) => (b < a ? b : a), Infinity);
const most = (list) => list.reduce((a, b) => (b > a ? b : a), -Infinity);

// ---- number formats (ChartView.TickFormat: auto, integer, decimal:N, percent, time) ----

function decimalsFor(step) {
  if (!finite(step) || step <= 0) return 2;
  return Math.min(6, Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
}

const trim = (text) => (text.includes(".") ? text.replace(/\.?0+$/, "") : text);
const pad = (n) => String(n).padStart(2, "0");

/** `value` written in `format`; `step` (a tick step) decides the precision. */
export function formatValue(value, format = "auto", step) {
  if (typeof value === "string") return value;
  if (!finite(value)) return "–";
  if (format === "integer") return String(Math.round(value));
  if (format?.startsWith("decimal:")) return value.toFixed(Math.min(10, Math.max(0, parseInt(format.slice(8), 10) || 0)));
  if (format === "percent") {
    const places = step === undefined ? 1 : decimalsFor(step * 100);
    return `${trim((value * 100).toFixed(places))}%`;
  }
  if (format === "time") {
    const d = new Date(value * 1000);
    return `${pad(d.getHours())}:${pad(d.getMinutes())}:${pad(d.getSeconds())}`;
  }
  const abs = Math.abs(value);
  if (abs >= 1e9) return `${trim((value / 1e9).toFixed(1))}G`;
  if (abs >= 1e6) return `${trim((value / 1e6).toFixed(1))}M`;
  if (abs >= 1e4) return `${trim((value / 1e3).toFixed(1))}k`;
  const places = step === undefined ? (abs >= 100 ? 1 : 3) : decimalsFor(step);
  return trim(value.toFixed(places));
}

// ---- scales ----

const TIME_STEPS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400];

/** A tidy tick step for `span` split in about `count` parts. */
function niceStep(span, count, time) {
  const raw = span / Math.max(1, count);
  if (time) return TIME_STEPS.find((t) => t >= raw / 1.5) ?? Math.ceil(raw / 86400) * 86400;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const f = raw / magnitude;
  return (f >= 7.07 ? 10 : f >= 3.16 ? 5 : f >= 1.41 ? 2 : 1) * magnitude; // the nearest 1-2-5 step
}

/** Ticks inside [min, max] at a tidy step; `extend` rounds the domain out to them. */
function ticks(min, max, count, { time = false, extend = false, whole = false } = {}) {
  if (!(max > min)) max = min + 1;
  let step = niceStep(max - min, count, time);
  if (whole) step = Math.max(1, Math.round(step));
  if (extend) { min = Math.floor(min / step + 1e-9) * step; max = Math.ceil(max / step - 1e-9) * step; }
  const list = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) list.push(+v.toFixed(10));
  return { min, max, step, list };
}

// ---- the model, from the cached props ----

function model(w) {
  const p = w?.props ?? {};
  const series = (p.series ?? []).map((row, i) => ({
    id: row.id, title: row.title ?? row.id, kind: row.kind ?? "line", color: row.color, index: i, points: [],
  }));
  const byId = new Map(series.map((x) => [x.id, x]));
  for (const pt of p.points ?? []) byId.get(pt.series)?.points.push(pt);
  const categorical = series.some((x) => x.kind === "bar" || x.points.some((pt) => typeof pt.x === "string"));
  const xFormat = p.xTickFormat ?? "auto";
  // A category's key is its label, or its number exactly (two numbers may read alike).
  const xKey = (x) => (typeof x === "string" ? x : `\u0000${x}`);
  const xText = (x) => (typeof x === "string" ? x : formatValue(x, xFormat));
  let categories = [];
  if (categorical) {
    const seen = new Set();
    for (const x of series) for (const pt of x.points) { const k = xKey(pt.x); if (!seen.has(k)) { seen.add(k); categories.push(k); } }
  }
  const categoryText = new Map();
  for (const ser of series) for (const pt of ser.points) categoryText.set(xKey(pt.x), xText(pt.x));
  return { p, series, categorical, categories, categoryText, xKey, xText, xFormat, yFormat: p.yTickFormat ?? "auto" };
}

// ---- drawing ----

function colourOf(series) {
  return series.color ? cssColor(series.color) : `var(--bd-chart-${(series.index % PALETTE) + 1})`;
}

/** Draws the chart now from its cached props (exported for measurements). */
export function render(el) {
  el.bdFrame = 0;
  const w = el.bdWidget;
  if (!w) return;
  const m = model(w);
  const { p, series, categorical, categories } = m;
  el.bdTitle.textContent = p.title ?? "";
  el.bdTitle.hidden = !p.title;
  // The figure is named by its title, unless the app gave it an accessibilityLabel (or
  // an attach-mode page named the element itself).
  if (!el.bdPageNamed) {
    if (p.title && !p.accessibilityLabel) el.setAttribute("aria-labelledby", el.bdTitle.id);
    else el.removeAttribute("aria-labelledby");
  }
  renderLegend(el, m);

  const width = Math.max(240, Math.round(el.bdPlot.clientWidth || 600));
  const height = Math.round(Math.min(320, Math.max(190, width * 0.42)));
  const all = series.flatMap((x) => x.points);
  const ys = all.map((pt) => pt.y).filter(finite);

  // y: fixed bounds win; otherwise fitted (bars stand on 0) and rounded out to ticks.
  let yLo = finite(p.yMin) ? p.yMin : ys.length ? least(ys) : 0;
  let yHi = finite(p.yMax) ? p.yMax : ys.length ? most(ys) : 1;
  if (series.some((x) => x.kind === "bar") && !finite(p.yMin)) yLo = Math.min(0, yLo);
  if (yHi <= yLo) { yHi = yLo + (finite(p.yMax) ? 0 : 1); if (yHi <= yLo) yLo = yHi - 1; }
  const fixedY = finite(p.yMin) && finite(p.yMax);
  // Room above the tallest bar for its value label.
  if (!finite(p.yMax) && series.some((x) => x.kind === "bar")) yHi += (yHi - yLo) * 0.12;
  const yCount = Math.max(2, Math.round(height / 56));
  const yt = ticks(yLo, yHi, yCount, { extend: !fixedY, whole: m.yFormat === "integer" });
  const yTickText = yt.list.map((v) => formatValue(v, m.yFormat, yt.step));

  const left = 14 + Math.max(...yTickText.map((t) => t.length), 2) * 7.2 + (p.yAxisTitle ? 20 : 0);
  const bottom = 26 + (p.xAxisTitle ? 22 : 0);
  const top = 12;
  const right = 16;
  const pw = Math.max(10, width - left - right);
  const ph = Math.max(10, height - top - bottom);
  const y = (v) => top + ph - ((v - yt.min) / (yt.max - yt.min)) * ph;

  // x: categories in bands, or numbers on a line.
  let x;
  let band = 0;
  let xTicks = [];
  let xDomain = null;
  if (categorical) {
    band = pw / Math.max(1, categories.length);
    const index = new Map(categories.map((c, i) => [c, i]));
    x = (pt) => left + (index.get(m.xKey(pt.x)) + 0.5) * band;
    const every = Math.max(1, Math.ceil(categories.length / Math.max(1, Math.floor(pw / 64))));
    xTicks = categories.map((c, i) => ({ at: left + (i + 0.5) * band, text: m.categoryText.get(c) })).filter((_, i) => i % every === 0);
  } else {
    const xs = all.map((pt) => pt.x).filter(finite);
    let xLo = xs.length ? least(xs) : 0;
    let xHi = xs.length ? most(xs) : 1;
    if (xHi <= xLo) { xLo -= 1; xHi += 1; }
    if (series.some((ser) => ser.kind === "scatter")) {
      // Dots keep clear of the edges.
      const padX = (xHi - xLo) * 0.04;
      xLo -= padX;
      xHi += padX;
    }
    const xt = ticks(xLo, xHi, Math.max(2, Math.floor(pw / (m.xFormat === "time" ? 90 : 60))), { time: m.xFormat === "time", whole: m.xFormat === "integer" });
    const scale = (v) => left + ((v - xLo) / (xHi - xLo)) * pw;
    xDomain = [xLo, xHi];
    x = (pt) => scale(pt.x);
    xTicks = xt.list.map((v) => ({ at: scale(v), text: formatValue(v, m.xFormat, xt.step) }));
  }
  // Labels that would touch the one before them are left out.
  let lastEnd = -Infinity;
  xTicks = xTicks.filter((t) => {
    const half = (t.text.length * 6.6 + 10) / 2;
    if (t.at - half < lastEnd) return false;
    lastEnd = t.at + half;
    return true;
  });

  const svg = el.bdSvg;
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("height", String(height));
  const clipId = el.bdClipId;
  const parts = [s("defs", {}, s("clipPath", { id: clipId }, s("rect", { x: left - 6, y: top - 6, width: pw + 12, height: ph + 12 })))];

  // Grid and y ticks.
  const grid = s("g", { class: "bd-chart-grid", "aria-hidden": "true" });
  yt.list.forEach((v, i) => {
    const at = Math.round(y(v)) + 0.5;
    grid.append(s("line", { x1: left, x2: left + pw, y1: at, y2: at }));
    grid.append(s("text", { class: "bd-chart-tick", x: left - 8, y: at, "text-anchor": "end", "dominant-baseline": "middle", text: yTickText[i] }));
  });
  const baseline = Math.round(top + ph) + 0.5;
  grid.append(s("line", { class: "bd-chart-axis", x1: left, x2: left + pw, y1: baseline, y2: baseline }));
  for (const t of xTicks) {
    grid.append(s("text", { class: "bd-chart-tick", x: t.at, y: top + ph + 18, "text-anchor": "middle", text: t.text }));
  }
  if (p.xAxisTitle) grid.append(s("text", { class: "bd-chart-axis-title", x: left + pw / 2, y: height - 6, "text-anchor": "middle", text: p.xAxisTitle }));
  if (p.yAxisTitle) {
    grid.append(s("text", { class: "bd-chart-axis-title", transform: `translate(14 ${top + ph / 2}) rotate(-90)`, "text-anchor": "middle", text: p.yAxisTitle }));
  }
  parts.push(grid);

  // Series: bars first (behind), then lines, then dots.
  const order = { bar: 0, line: 1, scatter: 2 };
  const bars = series.filter((x) => x.kind === "bar");
  const slide = s("g", { class: "bd-chart-slide" });
  const plot = s("g", { "clip-path": `url(#${clipId})` }, slide);
  const zero = y(Math.max(yt.min, Math.min(yt.max, 0)));
  for (const ser of [...series].sort((a, b) => order[a.kind] - order[b.kind] || a.index - b.index)) {
    const g = s("g", { class: `bd-chart-series bd-chart-${ser.kind}`, "data-series": ser.id, "data-count": ser.points.length });
    g.style.color = colourOf(ser);
    if (ser.kind === "line") {
      // The area under a line fades to nothing, so overlapping areas stay light.
      const fade = `${el.bdClipId}-fade-${ser.index}`;
      parts[0].append(s("linearGradient", { id: fade, x1: 0, y1: 0, x2: 0, y2: 1 },
        s("stop", { offset: "0%", "stop-color": "currentColor", "stop-opacity": 0.16 }),
        s("stop", { offset: "100%", "stop-color": "currentColor", "stop-opacity": 0 })));
      parts[0].lastChild.style.color = colourOf(ser);
      g.bdFade = fade;
    }
    if (ser.kind === "bar") {
      const slot = bars.indexOf(ser);
      const inner = band * 0.72;
      const bw = Math.max(2, inner / bars.length - 4);
      for (const pt of ser.points) {
        if (!finite(pt.y)) continue;
        const cx = x(pt) - inner / 2 + slot * (inner / bars.length) + 2;
        const top0 = Math.min(y(pt.y), zero);
        const hgt = Math.max(pt.y === 0 ? 0 : 1, Math.abs(zero - y(pt.y)));
        g.append(s("rect", { class: "bd-chart-bar", x: cx.toFixed(1), y: top0.toFixed(1), width: bw.toFixed(1), height: hgt.toFixed(1), rx: Math.min(4, bw / 4), "data-key": pt.id }));
        if (bw >= 22) {
          g.append(s("text", { class: "bd-chart-value", x: (cx + bw / 2).toFixed(1), y: (top0 - 6).toFixed(1), "text-anchor": "middle", text: formatValue(pt.y, m.yFormat) }));
        }
      }
    } else if (ser.kind === "line") {
      let d = "";
      let area = "";
      let run = [];
      const flush = () => {
        if (run.length) {
          area += `M${run[0][0]},${zero.toFixed(1)}L${run.map((q) => q.join(",")).join("L")}L${run[run.length - 1][0]},${zero.toFixed(1)}Z`;
        }
        run = [];
      };
      for (const pt of ser.points) {
        if (!finite(pt.y) || (!categorical && !finite(pt.x))) { flush(); continue; }
        const q = [x(pt).toFixed(1), y(pt.y).toFixed(1)];
        d += `${run.length ? "L" : "M"}${q[0]},${q[1]}`;
        run.push(q);
      }
      flush();
      g.append(s("path", { class: "bd-chart-area", d: area, fill: `url(#${g.bdFade})` }));
      g.append(s("path", { class: "bd-chart-line", d, "data-points": ser.points.length }));
      const last = [...ser.points].reverse().find((pt) => finite(pt.y));
      if (last) g.append(s("circle", { class: "bd-chart-last", cx: x(last).toFixed(1), cy: y(last.y).toFixed(1), r: 4 }));
    } else {
      for (const pt of ser.points) {
        if (!finite(pt.y) || (!categorical && !finite(pt.x))) continue;
        g.append(s("circle", { class: "bd-chart-dot", cx: x(pt).toFixed(1), cy: y(pt.y).toFixed(1), r: 4.5, "data-key": pt.id }));
      }
    }
    slide.append(g);
  }
  parts.push(plot);
  if (!all.length) {
    parts.push(s("text", { class: "bd-chart-empty", x: left + pw / 2, y: top + ph / 2, "text-anchor": "middle", text: "No data yet." }));
  }
  svg.replaceChildren(...parts);
  slideIn(el, slide, xDomain, pw);
  svg.setAttribute("aria-label", summary(el, m));
  el.bdLayout = { left, top, pw, ph, band, x, y, m };
  if (el.bdHoverX !== undefined) hover(el, el.bdHoverX);
  if (el.bdDetails.open) renderTable(el, m);
}

/**
 * The values at the x nearest the pointer (`px`, in SVG units), in a tip over the plot
 * with a guide line. Pointer only: the data table is the accessible way to the numbers.
 */
function hover(el, px) {
  const L = el.bdLayout;
  el.bdGuide?.remove();
  if (!L || px === undefined || px < L.left - 8 || px > L.left + L.pw + 8) { el.bdTip.hidden = true; return; }
  const { m } = L;
  let best = null;
  for (const ser of m.series) {
    if (ser.kind === "scatter" && !m.categorical) continue; // dots: x is not a shared key
    for (const pt of ser.points) {
      if (!finite(pt.y)) continue;
      const d = Math.abs(L.x(pt) - px);
      if (!best || d < best.d) best = { d, key: m.xKey(pt.x), at: L.x(pt), x: pt.x };
    }
  }
  if (!best || best.d > Math.max(24, L.band / 2)) { el.bdTip.hidden = true; return; }
  const rows = m.series.map((ser) => {
    const pt = [...ser.points].reverse().find((q) => m.xKey(q.x) === best.key);
    if (!pt) return null;
    const swatch = h("span", { class: `bd-chart-swatch bd-chart-swatch-${ser.kind}` });
    swatch.style.color = colourOf(ser);
    return h("div", { class: "bd-chart-tip-row" }, swatch, h("span", { text: ser.title }), h("b", { text: formatValue(pt.y, m.yFormat) }));
  }).filter(Boolean);
  if (!rows.length) { el.bdTip.hidden = true; return; }
  el.bdGuide = s("line", { class: "bd-chart-guide", x1: best.at, x2: best.at, y1: L.top, y2: L.top + L.ph });
  el.bdSvg.append(el.bdGuide);
  el.bdTip.replaceChildren(h("div", { class: "bd-chart-tip-x", text: m.xText(best.x) }), ...rows);
  el.bdTip.hidden = false;
  const scale = el.bdPlot.clientWidth / (+el.bdSvg.getAttribute("width") || 1);
  const tipWidth = el.bdTip.offsetWidth;
  const left = best.at * scale + 12 + tipWidth > el.bdPlot.clientWidth ? best.at * scale - 12 - tipWidth : best.at * scale + 12;
  el.bdTip.style.left = `${Math.max(0, left)}px`;
  el.bdTip.style.top = `${L.top * scale}px`;
}

const calm = matchMedia("(prefers-reduced-motion: reduce)");

/**
 * A streaming window that moved right by dx slides in from where it was, over about the
 * time between samples, so the line scrolls instead of jumping.
 */
function slideIn(el, slide, domain, pw) {
  const prev = el.bdXDomain;
  el.bdXDomain = domain;
  if (!domain || !prev || calm.matches) return;
  const span = domain[1] - domain[0];
  const moved = domain[1] - prev[1];
  // A window (about the same span) that moved right; a growing chart just redraws.
  if (!(moved > 0) || Math.abs(span - (prev[1] - prev[0])) > span * 0.05) return;
  const dx = (moved / span) * pw;
  if (dx > pw / 3) return;
  const now = performance.now();
  const duration = Math.min(1000, Math.max(120, (now - (el.bdSlideAt ?? now - 500)) * 0.9));
  el.bdSlideAt = now;
  slide.style.transform = `translateX(${dx.toFixed(1)}px)`;
  slide.getBoundingClientRect(); // commit the start position
  slide.style.transition = `transform ${Math.round(duration)}ms linear`;
  slide.style.transform = "translateX(0)";
}

function renderLegend(el, m) {
  const show = m.p.showsLegend !== false && m.series.length > 0;
  el.bdLegend.hidden = !show;
  if (!show) return;
  const stamp = JSON.stringify(m.series.map((x) => [x.id, x.title, x.kind, x.color]));
  if (el.bdLegend.bdStamp === stamp) return;
  el.bdLegend.bdStamp = stamp;
  el.bdLegend.replaceChildren(...m.series.map((ser) => {
    const swatch = h("span", { class: `bd-chart-swatch bd-chart-swatch-${ser.kind}`, "aria-hidden": "true" });
    swatch.style.color = colourOf(ser);
    return h("li", {}, swatch, h("span", { text: ser.title }));
  }));
}

/** The chart in a sentence or three, for the SVG's accessible name. */
function summary(el, m) {
  const { p, series } = m;
  const name = p.title || el.getAttribute("aria-label") || "Chart";
  const kinds = { line: "line", bar: "bars", scatter: "dots" };
  const parts = series.map((ser) => {
    const ys = ser.points.map((pt) => pt.y).filter(finite);
    const n = ser.points.length;
    let text = `${ser.title}: ${kinds[ser.kind] ?? ser.kind}, ${n} ${n === 1 ? "point" : "points"}`;
    if (ser.kind === "bar" && n && n <= 12) {
      text += ` (${ser.points.map((pt) => `${m.xText(pt.x)} ${formatValue(pt.y, m.yFormat)}`).join(", ")})`;
    } else if (ys.length) {
      text += `, from ${formatValue(least(ys), m.yFormat)} to ${formatValue(most(ys), m.yFormat)}`;
      if (ser.kind === "line") text += `, latest ${formatValue(ys[ys.length - 1], m.yFormat)}`;
    }
    return text;
  });
  return `${name}. ${parts.length ? parts.join("; ") : "No data yet"}.`;
}

/** The data table: one row per x, one column per series (open only: it costs DOM). */
function renderTable(el, m) {
  const { p, series } = m;
  const rows = new Map();
  for (const ser of series) {
    for (const pt of ser.points) {
      const key = m.categorical ? m.xKey(pt.x) : pt.x;
      if (!rows.has(key)) rows.set(key, { x: pt.x, values: new Map() });
      const cell = rows.get(key).values;
      cell.set(ser.id, [...(cell.get(ser.id) ?? []), pt.y]);
    }
  }
  let keys = [...rows.keys()];
  if (!m.categorical) keys = keys.filter(finite).sort((a, b) => a - b);
  const head = h("tr", {}, h("th", { scope: "col", text: p.xAxisTitle || (m.xFormat === "time" ? "Time" : "x") }),
    ...series.map((ser) => h("th", { scope: "col", text: ser.title })));
  const body = keys.map((k) => {
    const r = rows.get(k);
    return h("tr", {},
      h("th", { scope: "row", text: m.xText(r.x) }),
      ...series.map((ser) => h("td", { text: (r.values.get(ser.id) ?? []).map((v) => formatValue(v, m.yFormat)).join(", ") })));
  });
  el.bdTable.replaceChildren(
    h("caption", { class: "bd-visually-hidden", text: p.title || "Chart data" }),
    h("thead", {}, head), h("tbody", {}, ...body));
}

function schedule(el) {
  if (el.bdFrame) return;
  // One redraw per frame; a hidden page gets no frames, so a timer stands in.
  el.bdFrame = document.hidden ? setTimeout(() => render(el), 100) : requestAnimationFrame(() => render(el));
}

const update = (el, _v, w) => { el.bdWidget = w; schedule(el); };

/** Builds the chart's parts into `el`: a <figure> in auto-render, the page's element in attach mode. */
function build(el) {
  if (el.bdSvg) return el;
  el.bdPageNamed = el.hasAttribute("aria-label") || el.hasAttribute("aria-labelledby");
  const title = h("h3", { class: "bd-chart-title", id: nextId("bd-chart-title"), hidden: true });
  const legend = h("ul", { class: "bd-chart-legend", "aria-hidden": "true", hidden: true });
  const svg = s("svg", { class: "bd-chart-svg", role: "img", "aria-label": "Chart", xmlns: SVG });
  const plot = h("div", { class: "bd-chart-plot" }, svg);
  const table = h("table", { class: "bd-chart-table" });
  const details = h("details", { class: "bd-chart-data" }, h("summary", { text: "Data table" }), h("div", { class: "bd-chart-table-wrap", tabindex: "0", role: "region", "aria-label": "Data table" }, table));
  el.classList.add("bd-chart");
  el.append(title, legend, plot, details);
  Object.assign(el, { bdTitle: title, bdLegend: legend, bdSvg: svg, bdPlot: plot, bdTable: table, bdDetails: details, bdClipId: nextId("bd-chart-clip") });
  details.addEventListener("toggle", () => { if (details.open) schedule(el); });
  const tip = h("div", { class: "bd-chart-tip", "aria-hidden": "true", hidden: true });
  plot.append(tip);
  el.bdTip = tip;
  plot.addEventListener("pointermove", (e) => {
    const box = svg.getBoundingClientRect();
    el.bdHoverX = ((e.clientX - box.left) / (box.width || 1)) * (+svg.getAttribute("width") || box.width);
    hover(el, el.bdHoverX);
  });
  plot.addEventListener("pointerleave", () => { el.bdHoverX = undefined; hover(el, undefined); });
  // Responsive: redraw at the container's width.
  let lastWidth = 0;
  new ResizeObserver(([entry]) => {
    const width = Math.round(entry.contentRect.width);
    if (width !== lastWidth) { lastWidth = width; schedule(el); }
  }).observe(plot);
  return el;
}

export default {
  captionless: true, // it names itself: its title, or its accessibilityLabel as aria-label
  create: () => build(h("figure")),
  hydrate: (el) => { build(el); },
  props: {
    title: update, xAxisTitle: update, yAxisTitle: update, yMin: update, yMax: update,
    xTickFormat: update, yTickFormat: update, showsLegend: update, series: update, points: update,
    accessibilityLabel(el, v, w) { commonProps.accessibilityLabel(el, v); update(el, v, w); },
  },
  // Keyed ops on `points` or `series`: the cache has them; redraw on the next frame.
  ops(el) { schedule(el); return true; },
};
