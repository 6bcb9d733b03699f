// The page: tabs of forms, each form one question for the diemon module. Exact questions
// are answered as you type; seeded runs go a few thousand trials a step in a worker, with a
// progress bar and Stop. The whole state (tab, every field changed, the rule options and
// whether a run was asked) lives in the address's hash, so a link reopens the question.
(function () {
  "use strict";
  var D = Draw, el = D.el;
  var EXACT = ["dice", "skill", "sn", "burst", "marks"];
  var RUNS = ["duel", "squad"];
  var TAB_OF = { dice: "dice", skill: "skill", sn: "skill", duel: "duel", squad: "squad", burst: "burst", marks: "burst" };
  var state = { tab: "dice", options: {} };
  var docs = [];           // the rule options, as the module lists them
  var defaults = {};       // every field's value as the page ships it, by "form.field"
  var exact = null, runs = null;
  var running = null;      // the run under way: {form, stop}
  var forms = {};
  document.querySelectorAll("form[data-ask]").forEach(function (f) { forms[f.dataset.ask] = f; });

  // ---- the address: tab, changed fields, options, run ----
  function fields(f) {
    return Array.prototype.filter.call(f.elements, function (e) { return e.name; });
  }
  function keyOf(f, e) { return f.dataset.ask + "." + e.name; }
  Object.keys(forms).forEach(function (k) {
    fields(forms[k]).forEach(function (e) { defaults[keyOf(forms[k], e)] = e.value; });
  });
  function toHash(ran) {
    var p = new URLSearchParams();
    p.set("tab", state.tab);
    Object.keys(forms).forEach(function (k) {
      if (TAB_OF[k] !== state.tab) return;
      fields(forms[k]).forEach(function (e) {
        if (e.value !== defaults[keyOf(forms[k], e)]) p.set(keyOf(forms[k], e), e.value);
      });
    });
    Object.keys(state.options).sort().forEach(function (k) { p.set("o." + k, state.options[k]); });
    if (ran) p.set("run", "1");
    var h = "#" + p.toString();
    if (location.hash !== h) history.replaceState(null, "", h);
  }
  function fromHash() {
    var p = new URLSearchParams(location.hash.slice(1));
    var tab = p.get("tab");
    state.tab = document.getElementById(tab) && tab !== "loading" ? tab : "dice";
    state.options = {};
    Object.keys(forms).forEach(function (k) {
      fields(forms[k]).forEach(function (e) {
        var v = p.get(keyOf(forms[k], e));
        e.value = v === null ? defaults[keyOf(forms[k], e)] : v;
      });
    });
    p.forEach(function (v, k) { if (k.indexOf("o.") === 0) state.options[k.slice(2)] = v; });
    // A pasted catalog is shown, not hidden in its fold.
    document.querySelectorAll("details textarea").forEach(function (t) {
      if (t.value.trim()) t.closest("details").open = true;
    });
    return p.get("run") === "1";
  }

  // ---- tabs ----
  function show(tab) {
    state.tab = tab;
    document.querySelectorAll("#tabs button").forEach(function (b) {
      b.setAttribute("aria-selected", b.dataset.tab === tab ? "true" : "false");
    });
    document.querySelectorAll("main section").forEach(function (s) { s.hidden = s.id !== tab; });
  }
  document.querySelectorAll("#tabs button").forEach(function (b) {
    b.onclick = function () { show(b.dataset.tab); toHash(false); refresh(); };
  });

  // ---- questions from forms ----
  function val(f, name) { var e = f.elements[name]; return e ? e.value.trim() : ""; }
  // A field that is not a number the question can take, found before the module is asked.
  function Bad(field, message) { this.error = { field: field, message: message }; }
  function label(f, name) {
    var e = f.elements[name], l = e && e.closest("label");
    return l ? l.firstChild.textContent.trim() : name;
  }
  // A whole number of at least `min`, or null for an empty field when `optional`.
  function whole(f, name, min, optional) {
    var v = val(f, name);
    if (v === "" && optional) return null;
    if (!/^-?\d+$/.test(v) || Number(v) < min || Number(v) > 4294967295) {
      throw new Bad(name, label(f, name) + " " + JSON.stringify(v) + ": expected a whole number" +
        (min > -Infinity ? " from " + min : ""));
    }
    return Number(v);
  }
  function int(f, name) { return whole(f, name, -1000000, true); }
  function count(f, name) { return whole(f, name, 0, false); }
  function opts() { return Object.keys(state.options).map(function (k) { return [k, state.options[k]]; }); }
  function signed(n) { return n > 0 ? " + " + n : n < 0 ? " - " + (-n) : ""; }
  function list(f, name) {
    var v = val(f, name);
    if (v === "") return [];
    if (!/^\d+(\s*,\s*\d+)*$/.test(v)) throw new Bad(name, label(f, name) + " " + JSON.stringify(v) + ": expected whole numbers joined by commas, e.g. 4,2");
    return v.split(",").map(function (x) { return Number(x.trim()); });
  }
  var QUESTIONS = {
    dice: function (f) {
      return { ask: "dice", expr: val(f, "expr"), armor: val(f, "armor") || null, use: int(f, "use"), options: opts() };
    },
    skill: function (f) {
      var b = val(f, "bless"), e = val(f, "die") + " skill";
      if (b) e += " " + b + (val(f, "bdie") ? " " + val(f, "bdie") : "");
      return { ask: "dice", expr: e + signed(int(f, "mod") || 0), use: int(f, "use"), options: opts() };
    },
    sn: function (f) {
      var n = val(f, "n") === "1" ? "" : val(f, "n");
      return { ask: "dice", expr: "sn " + n + val(f, "die") + signed(int(f, "plus") || 0), options: opts() };
    },
    burst: function (f) {
      return { ask: "burst", shots: count(f, "shots"), skill: val(f, "skill"), options: opts() };
    },
    marks: function (f) {
      return {
        ask: "marks", attr: list(f, "attr"), super_attr: list(f, "super_attr"),
        skill: count(f, "skill"), super_skill: count(f, "super_skill"), superpower: count(f, "superpower"),
        difficulty: count(f, "difficulty"), against_marks: whole(f, "against_marks", 0, true), options: opts()
      };
    },
    duel: function (f) {
      if (val(f, "mode") === "units") {
        // Two catalog units: `diemon duel UNIT UNIT`, a squad battle of one a side.
        return {
          ask: "squad", a: val(f, "a_unit"), b: val(f, "b_unit"), first: val(f, "first"),
          trials: val(f, "trials"), target_ci: val(f, "target_ci") || null, seed: val(f, "seed"), options: opts()
        };
      }
      var side = function (s) {
        return { skill: val(f, s + ".skill"), use: val(f, s + ".use"), damage: val(f, s + ".damage"), armor: val(f, s + ".armor") };
      };
      return {
        ask: "duel", a: side("a"), b: side("b"), first: val(f, "first"), max_attacks: count(f, "max_attacks"),
        trials: val(f, "trials"), target_ci: val(f, "target_ci") || null, seed: val(f, "seed"), options: opts()
      };
    },
    squad: function (f) {
      return {
        ask: "squad", a: val(f, "a"), b: val(f, "b"), budget: val(f, "budget") || null, distance: count(f, "distance"),
        room: count(f, "room"), max_turns: count(f, "max_turns"), first: val(f, "first"),
        a_target: val(f, "a_target"), b_target: val(f, "b_target"), a_position: val(f, "a_position"), b_position: val(f, "b_position"),
        a_response: val(f, "a_response"), b_response: val(f, "b_response"), a_sprint: val(f, "a_sprint"), b_sprint: val(f, "b_sprint"),
        catalog: val(f, "catalog") || null, trials: val(f, "trials"), target_ci: val(f, "target_ci") || null,
        seed: val(f, "seed"), options: opts()
      };
    }
  };

  // Shows the fields of the form's mode (the duel's stat lines or catalog units).
  function modes() {
    Object.keys(forms).forEach(function (k) {
      var m = forms[k].elements.mode;
      if (!m) return;
      forms[k].querySelectorAll("[data-mode]").forEach(function (x) { x.hidden = x.dataset.mode !== m.value; });
    });
  }

  // ---- answers ----
  function out(name) { return document.querySelector('[data-out="' + name + '"]'); }
  function mark(f, e) {
    fields(f).forEach(function (x) { x.classList.remove("bad"); x.removeAttribute("aria-invalid"); });
    if (!e) return;
    var name = e.field === "expr" && f.dataset.ask !== "dice" ? null : e.field;
    if (f.dataset.ask === "duel" && (name === "a" || name === "b")) name += "_unit";
    var x = name && f.elements[name];
    if (x && x.classList) {
      x.classList.add("bad");
      x.setAttribute("aria-invalid", "true");
    }
  }
  function fill(node, parts) {
    node.replaceChildren.apply(node, parts.filter(Boolean));
  }
  // A distribution's rows as the terminal shows them: the unlikely tails folded.
  function folded(a) {
    var rows = [];
    if (a.below > 0) rows.push(["<" + a.rows[0][0], D.prob(a.below), ""]);
    a.rows.forEach(function (r) { rows.push([String(r[0]), D.prob(r[1]), D.prob(r[2])]); });
    if (a.above > 0) rows.push([">" + a.rows[a.rows.length - 1][0], D.prob(a.above), ""]);
    return rows;
  }
  var RENDER = {
    dice: function (a) {
      var lines = [
        ["mean", D.fixed(a.mean, 6)], ["sd", D.fixed(a.sd, 6)],
        ["P(Critical Failure)", D.prob(a.p_critical_failure)]
      ];
      if (a.p_overskill !== undefined) lines.push(["P(Overskill)", D.prob(a.p_overskill)]);
      if (a.p_meets !== undefined) lines.push(["P(meets Use " + a.use + ")", D.prob(a.p_meets)]);
      if (a.p_beats !== undefined) {
        lines.push(["P(beats " + a.vs + ")", D.prob(a.p_beats)]);
        lines.push(["P(ties " + a.vs + ")", D.prob(a.p_tie) + "  (armor_tie=" + a.armor_tie + ")"]);
      }
      var rows = folded(a);
      var box = el("div", { "class": "rows" });
      box.appendChild(D.table(["value", "P(=)", "P(>=)"], rows, "pmf"));
      return [
        el("p", { "class": "figures" }, a.canonical + " — exact; explosion tails cut at " + a.tail_bound +
          ": " + D.prob(a.truncated_mass) + " of the mass left out"),
        D.table(["figure", "exact"], lines, "summary"),
        D.pmf(a.rows, "P(=) of " + a.canonical),
        box,
        (a.below > 0 || a.above > 0) ? el("p", { "class": "note" }, "Rows beyond a chance of 1e-6 are folded, as in the terminal.") : null,
        D.command(a.command), D.json(a)
      ];
    },
    burst: function (a) {
      var rows = a.shots_table.map(function (r) { return [String(r.shot), String(-r.penalty), D.fixed(r.p_jams, 6), D.fixed(r.p_fired, 6)]; });
      return [
        el("p", { "class": "figures" }, "MachineGun burst of " + a.shots + " with a " + a.skill + " (Ch. 8.3; auto_penalty=" + a.auto_penalty + "): exact"),
        D.table(["shot", "penalty", "P(jams on it)", "P(fired this many)"], rows),
        D.table(["figure", "exact"], [["P(the gun jams)", D.fixed(a.p_jam, 6)], ["mean shots fired", D.fixed(a.mean_fired, 4)]]),
        D.command(a.command), D.json(a)
      ];
    },
    marks: function (a) {
      var lv = Object.keys(a.p_at_least).map(function (k) { return [k, D.prob(a.p_levels[k]), D.prob(a.p_at_least[k])]; });
      var rows = folded(a);
      var vs = a.p_wins !== undefined ? D.table(["against " + a.vs_marks + " Marks", "P"],
        [["more Marks (wins)", D.prob(a.p_wins)], ["equal (marks_tie=" + a.options.marks_tie + ")", D.prob(a.p_tie)], ["fewer", D.prob(a.p_loses)]]) : null;
      return [
        el("p", { "class": "figures" }, a.pool + " — mean " + D.fixed(a.mean, 4) + " Marks (exact)"),
        D.table(["success level", "P(exactly)", "P(at least)"], lv), vs,
        D.pmf(a.rows, "P(Marks)"), D.table(["Marks", "P(=)", "P(>=)"], rows),
        D.command(a.command), D.json(a)
      ];
    }
  };
  RENDER.skill = RENDER.dice;
  // SN dice: "every die shows 1" is the whole roll Fumbled (Ch. D.3), so the figure says so.
  RENDER.sn = function (a) {
    var parts = RENDER.dice(a);
    parts.forEach(function (n) {
      if (!n || !n.querySelectorAll) return;
      n.querySelectorAll("td").forEach(function (td) {
        if (td.textContent === "P(Critical Failure)") td.textContent = "P(every SN die Fumbles)";
      });
    });
    return parts;
  };

  // Answers an exact form now (a newer question supersedes an older one still out).
  var asked = {};
  // The question a form asks, or its field's error as the module would give it.
  function question(name) {
    try {
      return { q: QUESTIONS[name](forms[name]) };
    } catch (e) {
      if (e instanceof Bad) return { r: e };
      throw e;
    }
  }
  function answerExact(name) {
    var f = forms[name], n = (asked[name] || 0) + 1, got = question(name);
    asked[name] = n;
    return (got.r ? Promise.resolve(got.r) : exact.ask(got.q)).then(function (r) {
      if (asked[name] !== n) return;
      mark(f, r.error);
      window.diemon.answers[name] = r.ok || r.error;
      fill(out(name), r.error ? [D.error(r.error)] : RENDER[name](r.ok));
    });
  }
  function refresh() {
    var work = [];
    Object.keys(forms).forEach(function (k) {
      if (TAB_OF[k] === state.tab && EXACT.indexOf(k) >= 0) work.push(answerExact(k));
    });
    return Promise.all(work);
  }

  // ---- seeded runs ----
  // A run's figures, labelled as the terminal labels them (`diemon duel`'s table).
  function runFigures(name, a) {
    var ci = function (e, d) { return "[" + D.fixed(e[0], d) + ", " + D.fixed(e[1], d) + "]"; };
    var row = function (label, p, e, d) { return [label, D.fixed(p, d), ci(e, d)]; };
    var squad = a.mean_attacks === undefined, rows;
    if (!squad) {
      // As the terminal: the draw's row only where a draw can be seen.
      var most = Number(val(forms[name], "max_attacks"));
      rows = [row("A wins", a.p_a_wins, a.ci_a_wins, 6), row("B wins", a.p_b_wins, a.ci_b_wins, 6)];
      if (a.p_draw > 0 || most < 1000) rows.push(row("draw (" + most + " attacks)", a.p_draw, a.ci_draw, 6));
      rows.push(row("first attacker wins", a.p_first_side_wins, a.ci_first_side_wins, 6));
      rows.push(row("mean attacks", a.mean_attacks, a.ci_mean_attacks, 4));
    } else {
      rows = [
        row("P(A wins)", a.p_a_wins, a.ci_a_wins, 6), row("P(B wins)", a.p_b_wins, a.ci_b_wins, 6),
        row("P(draw)", a.p_draw, a.ci_draw, 6), row("P(first side wins)", a.p_first_side_wins, a.ci_first_side_wins, 6),
        row("mean turns", a.mean_turns, a.ci_mean_turns, 4),
        row("A survivors (mean)", a.survivors_a, a.ci_survivors_a, 4), row("B survivors (mean)", a.survivors_b, a.ci_survivors_b, 4),
        row("A CP left (mean)", a.cp_left_a, a.ci_cp_left_a, 4), row("B CP left (mean)", a.cp_left_b, a.ci_cp_left_b, 4)
      ];
    }
    var inert = (a.inert_a || []).map(function (x) { return "A: " + x; }).concat((a.inert_b || []).map(function (x) { return "B: " + x; }));
    return [
      el("p", { "class": "figures" }, "A: " + a.a),
      el("p", { "class": "figures" }, "B: " + a.b),
      squad ? el("p", { "class": "figures" }, "CP fielded: A " + a.cp_a + ", B " + a.cp_b +
        (a.cp_gap ? " (" + (a.cp_gap > 0 ? "A" : "B") + " fields " + Math.abs(a.cp_gap) + " CP more)" : "")) : null,
      // The seed as typed: JSON numbers past 2^53 do not survive JavaScript.
      el("p", { "class": "figures" }, a.trials + " " + (name === "duel" ? "duels" : "battles") + ", seed " + val(forms[name], "seed") + " (" + a.ended + ")"),
      D.table(["", squad ? "" : "P", "95% CI"], rows, "summary"),
      D.shares([
        { label: "A wins", p: a.p_a_wins, ci: a.ci_a_wins, color: "#2458a6" },
        { label: "B wins", p: a.p_b_wins, ci: a.ci_b_wins, color: "#b5452b" },
        { label: "draw", p: a.p_draw, ci: a.ci_draw, color: "#7a8291" }
      ], "win rates with 95% CIs"),
      inert.length ? el("p", { "class": "note" }, "Paid for and unused in this battle — " + inert.join("; ")) : null,
      el("p", { "class": "note" }, (a.trials_per_sec / 1e6).toFixed(2) + " M " + (name === "duel" ? "duels" : "battles") + "/s in this page (one worker)"),
      D.command(a.command), D.json(a)
    ];
  }
  function run(name) {
    var f = forms[name], got = question(name);
    var go = f.querySelector("[data-run]"), stop = f.querySelector("[data-stop]");
    var bar = f.querySelector("progress"), status = f.querySelector(".status");
    if (running) running.stop = true;
    delete window.diemon.answers[name];
    var me = { stop: false };
    running = me;
    go.disabled = true;
    stop.disabled = false;
    stop.onclick = function () { me.stop = true; };
    status.textContent = "starting";
    var t0 = performance.now(), size = 2048;
    var finish = function () { go.disabled = false; stop.disabled = true; if (running === me) running = null; };
    return (got.r ? Promise.resolve(got.r) : runs.ask(got.q)).then(function (r) {
      mark(f, r.error);
      if (r.error) {
        window.diemon.answers[name] = r.error;
        fill(out(name), [D.error(r.error)]);
        status.textContent = "";
        finish();
        return;
      }
      var id = r.ok.run;
      var step = function () {
        var s0 = performance.now();
        return runs.ask({ ask: "step", run: id, trials: size, seconds: (performance.now() - t0) / 1000 }).then(function (s) {
          if (s.error) {
            fill(out(name), [D.error(s.error)]);
            status.textContent = "";
            finish();
            return;
          }
          var st = s.ok, a = st.answer;
          // Steps of about a tenth of a second: Stop answers within one.
          var took = Math.max(performance.now() - s0, 1);
          size = Math.max(256, Math.min(size * 4, Math.round(size * 100 / took)));
          bar.max = st.total;
          bar.value = a.trials;
          if (st.done || me.stop) {
            window.diemon.answers[name] = a;
            fill(out(name), runFigures(name, a));
            status.textContent = st.done ? a.ended : "stopped after " + a.trials + " (the command below gives these figures)";
            runs.ask({ ask: "drop", run: id });
            toHash(st.done);
            finish();
            return;
          }
          status.textContent = a.trials + " of at most " + st.total + ": P(A wins) " + D.fixed(a.p_a_wins, 4);
          return step();
        });
      };
      return step();
    });
  }
  RUNS.forEach(function (name) {
    forms[name].querySelector("[data-run]").onclick = function () { run(name); };
  });

  // ---- the rule options ----
  function optionControls() {
    var box = document.getElementById("option-list");
    box.replaceChildren();
    docs.forEach(function (o) {
      var row = el("div", { "class": "opt" + (state.options[o.key] ? " set" : "") });
      var id = "opt-" + o.key;
      row.appendChild(el("label", { "for": id })).appendChild(el("b", {}, o.key));
      var now = state.options[o.key] || o.default, s;
      if (o.values.indexOf("...") >= 0) {
        // An open range (a count): typed, with the listed values offered.
        s = el("input", { id: id, name: o.key, list: id + "-values", autocomplete: "off" });
        var dl = el("datalist", { id: id + "-values" });
        o.values.forEach(function (v) { if (v !== "...") dl.appendChild(el("option", { value: v })); });
        row.appendChild(dl);
      } else {
        s = el("select", { id: id, name: o.key });
        o.values.forEach(function (v) { s.appendChild(el("option", { value: v }, v + (v === o.default ? " (default)" : ""))); });
        if (o.values.indexOf(now) < 0) s.appendChild(el("option", { value: now }, now));
      }
      s.value = now;
      s.onchange = function () {
        var v = s.value.trim();
        if (v === o.default || v === "") delete state.options[o.key]; else state.options[o.key] = v;
        row.className = "opt" + (state.options[o.key] ? " set" : "");
        changed();
      };
      row.appendChild(s);
      row.appendChild(el("p", { "class": "note" }, o.meaning + " — " + o.source));
      box.appendChild(row);
    });
    var n = Object.keys(state.options).length;
    document.getElementById("changed").textContent = n ? "(" + n + ")" : "";
  }
  function changed() {
    var n = Object.keys(state.options).length;
    document.getElementById("changed").textContent = n ? "(" + n + ")" : "";
    toHash(false);
  }
  document.getElementById("reset").onclick = function () { state.options = {}; optionControls(); changed(); };

  // ---- wiring ----
  var timers = {};
  Object.keys(forms).forEach(function (k) {
    var f = forms[k];
    f.addEventListener("submit", function (e) { e.preventDefault(); if (RUNS.indexOf(k) >= 0) run(k); });
    f.addEventListener("input", function () {
      modes();
      toHash(false);
      if (EXACT.indexOf(k) < 0) return;
      clearTimeout(timers[k]);
      timers[k] = setTimeout(function () { answerExact(k); }, 120);
    });
  });
  window.addEventListener("hashchange", function () {
    var again = fromHash();
    modes();
    show(state.tab);
    optionControls();
    refresh();
    if (again && RUNS.indexOf(state.tab) >= 0) run(state.tab);
  });
  function policies(list) {
    document.querySelectorAll("select[data-policy]").forEach(function (s) {
      var p = list[s.dataset.policy];
      if (!p) return;
      var keep = s.value;
      s.replaceChildren();
      p.values.forEach(function (v) { s.appendChild(el("option", { value: v }, v + (v === p.default ? " (default)" : ""))); });
      s.value = keep && p.values.indexOf(keep) >= 0 ? keep : p.default;
      defaults[keyOf(forms.squad, s)] = p.default;
    });
  }
  // The module's bytes: base64 of gzip (scripts/build-web), unzipped by the browser itself.
  function module() {
    var s = atob(DIEMON_WASM_GZ), u = new Uint8Array(s.length);
    for (var i = 0; i < s.length; i++) u[i] = s.charCodeAt(i);
    var plain = new Blob([u]).stream().pipeThrough(new DecompressionStream("gzip"));
    return new Response(plain).arrayBuffer().then(function (b) { return WebAssembly.compile(b); });
  }

  // ---- start ----
  // What the page has answered, by form: read by the browser test, and handy in a console.
  window.diemon = { ready: false, answers: {} };
  module().then(function (m) {
    exact = new DiemonWorker(m);
    runs = new DiemonWorker(m);
    return Promise.all([exact.ask({ ask: "options" }), exact.ask({ ask: "catalog" })]);
  }).then(function (r) {
    docs = r[0].ok;
    var dl = document.getElementById("units");
    r[1].ok.units.forEach(function (u) { dl.appendChild(el("option", { value: u })); });
    policies(r[1].ok.policies);
    var again = fromHash();
    modes();
    show(state.tab);
    optionControls();
    document.getElementById("loading").hidden = true;
    return refresh().then(function () {
      window.diemon.ready = true;
      if (again && RUNS.indexOf(state.tab) >= 0) return run(state.tab);
    });
  }).catch(function (e) {
    var l = document.getElementById("loading");
    l.textContent = "The diemon module did not start: " + e + ". Build it with scripts/build-web.";
    l.className = "error";
    console.error(e);
  });
})();
