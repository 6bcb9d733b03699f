// Drawing the answers: tables, figures with their CIs, and small SVG charts. No library:
// the page loads nothing from elsewhere.
var Draw = (function () {
  var NS = "http://www.w3.org/2000/svg";
  function el(tag, attrs, text) {
    var e = document.createElement(tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function svg(tag, attrs, text) {
    var e = document.createElementNS(NS, tag);
    for (var k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  // Rounds as Rust's formatting does, so the page prints the terminal's digits: JavaScript
  // rounds an exact tie (0.0078125 to 6 places) up, Rust to the even digit. `text` is
  // JavaScript's rounding of |x| and `long` its exact expansion far past the cut `at`.
  function even(text, long, at) {
    var rest = long.slice(at);
    if (!/^50*$/.test(rest)) return text;
    var kept = long.slice(0, at).replace(/\.$/, "");
    var last = kept.replace(".", "").slice(-1);
    return Number(last) % 2 === 0 ? kept : text;
  }
  // x to d decimals: Rust's `{:.d$}`.
  function fixed(x, d) {
    var a = Math.abs(x), long = a.toFixed(Math.min(100, d + 40));
    var r = even(a.toFixed(d), long, long.indexOf(".") + 1 + d);
    return (x < 0 && Number(r) !== 0 ? "-" : "") + r;
  }
  // x with d decimals of mantissa: Rust's `{:.d$e}` (`1.234e-5`, `1.500e0`).
  function exp(x, d) {
    var a = Math.abs(x), t = a.toExponential(d), long = a.toExponential(Math.min(100, d + 40));
    var e = long.slice(long.indexOf("e"));
    var r = even(t.slice(0, t.indexOf("e")), long.slice(0, long.indexOf("e")), d + 2);
    if (r !== t.slice(0, t.indexOf("e"))) t = r + e;
    return (x < 0 ? "-" : "") + t.replace("e+", "e");
  }
  // A probability as the terminal prints it: 6 decimals, or 4 significant digits when small.
  function prob(p) {
    if (p === 0) return "0";
    if (p < 1e-4) return exp(p, 3);
    return fixed(p, 6);
  }
  // A table in a scroll box: `head` the column names, `rows` arrays of cells; a cell's class
  // "name" aligns it left.
  function table(head, rows, cls) {
    var t = el("table", cls ? { "class": cls } : {});
    var tr = el("tr");
    head.forEach(function (h, i) { tr.appendChild(el("th", i === 0 ? { "class": "name" } : {}, h)); });
    t.appendChild(el("thead")).appendChild(tr);
    var tb = t.appendChild(el("tbody"));
    rows.forEach(function (r) {
      var row = el("tr");
      r.forEach(function (c, i) { row.appendChild(el("td", i === 0 ? { "class": "name" } : {}, c)); });
      tb.appendChild(row);
    });
    var box = el("div", { "class": "scroll" });
    box.appendChild(t);
    return box;
  }
  // P(=) of each shown value as columns, with the value axis labelled at a few ticks.
  function pmf(rows, title) {
    var W = 600, H = 220, L = 56, B = 30, T = 14;
    var s = svg("svg", { viewBox: "0 0 " + W + " " + H, "class": "chart", role: "img", "aria-label": title });
    var peak = rows.reduce(function (m, r) { return Math.max(m, r[1]); }, 0) || 1;
    var n = rows.length, w = (W - L - 8) / Math.max(n, 1);
    s.appendChild(svg("line", { x1: L, y1: H - B, x2: W - 4, y2: H - B, stroke: "#9aa3b1" }));
    s.appendChild(svg("text", { x: L - 6, y: T + 4, "text-anchor": "end" }, peak.toFixed(3)));
    s.appendChild(svg("text", { x: L - 6, y: H - B, "text-anchor": "end" }, "0"));
    var every = Math.max(1, Math.ceil(n / 9));
    rows.forEach(function (r, i) {
      var h = (H - B - T) * r[1] / peak, x = L + i * w;
      if (h > 0) s.appendChild(svg("rect", { x: x + w * 0.1, y: H - B - h, width: Math.max(w * 0.8, 0.5), height: h, fill: "#2458a6" }));
      if (i % every === 0) s.appendChild(svg("text", { x: x + w / 2, y: H - B + 20, "text-anchor": "middle" }, String(r[0])));
    });
    return s;
  }
  // Shares with their 95% CIs as bars with whiskers: `items` [{label, p, ci, color}].
  function shares(items, title) {
    var W = 600, row = 34, L = 110, H = items.length * row + 28;
    var s = svg("svg", { viewBox: "0 0 " + W + " " + H, "class": "chart", role: "img", "aria-label": title });
    var x = function (p) { return L + (W - L - 20) * p; };
    [0, 0.25, 0.5, 0.75, 1].forEach(function (t) {
      s.appendChild(svg("line", { x1: x(t), y1: 4, x2: x(t), y2: H - 18, stroke: "#e3e7ed" }));
      s.appendChild(svg("text", { x: x(t), y: H - 4, "text-anchor": "middle" }, String(t)));
    });
    items.forEach(function (it, i) {
      var y = 8 + i * row;
      s.appendChild(svg("text", { x: L - 8, y: y + 16, "text-anchor": "end" }, it.label));
      s.appendChild(svg("rect", { x: x(0), y: y, width: x(it.p) - x(0), height: 22, fill: it.color || "#2458a6", opacity: 0.85 }));
      s.appendChild(svg("line", { x1: x(it.ci[0]), y1: y + 11, x2: x(it.ci[1]), y2: y + 11, stroke: "#111", "stroke-width": 3 }));
    });
    return s;
  }
  // The command line that gives the same figures, with a copy button.
  function command(text) {
    var d = el("div", { "class": "cmd" });
    var c = el("code", {}, text);
    var b = el("button", { type: "button", "class": "copy" }, "Copy the CLI command");
    b.onclick = function () {
      var done = function () { b.textContent = "Copied"; setTimeout(function () { b.textContent = "Copy the CLI command"; }, 1500); };
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(text).then(done, function () { pick(c); });
      } else { pick(c); }
    };
    d.appendChild(c);
    d.appendChild(b);
    return d;
  }
  // Selects the text so it can be copied by hand (or by the browser's copy command).
  function pick(node) {
    var r = document.createRange();
    r.selectNodeContents(node);
    var s = window.getSelection();
    s.removeAllRanges();
    s.addRange(r);
    try { document.execCommand("copy"); } catch (e) { /* the selection stays for the reader */ }
  }
  // The raw answer, as `--json` prints it.
  function json(obj) {
    var d = el("details", { "class": "json" });
    d.appendChild(el("summary", {}, "The answer as JSON"));
    d.appendChild(el("pre", {}, JSON.stringify(obj, null, 1)));
    return d;
  }
  function error(e) {
    return el("pre", { "class": "error", role: "alert" }, e.message);
  }
  return { el: el, prob: prob, fixed: fixed, exp: exp, table: table, pmf: pmf, shares: shares, command: command, json: json, error: error };
})();
