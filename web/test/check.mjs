// The page in a real browser, as a reader uses it (scripts/web-test runs this in CI):
// typing an expression shows its table; a bad one shows a located error; a seeded duel, a
// battle, a burst and a pool print the figures `diemon ... --json` prints, digit for digit,
// and the command the page offers prints them too; Stop keeps the duels run; a shared
// address reopens the same figures; no request leaves the page, no console error appears,
// and nothing is wider than a 390px screen.
//
//   node web/test/check.mjs PATH/TO/diemon
import { execFileSync } from "node:child_process";
import { copyFileSync, mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const diemon = path.resolve(process.argv[2]);
const page_url = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "index.html")).href;
const W = 390;
let failed = 0;
const errors = [];
const requests = [];

function check(name, ok, detail) {
  console.log((ok ? "ok     " : "FAILED ") + name + (ok || !detail ? "" : "\n       " + detail));
  if (!ok) failed++;
}
function cli(args) {
  return execFileSync(diemon, args, { encoding: "utf8" });
}
// The page's `command` run as a shell would run it, `diemon` being the binary under test.
function shell(command) {
  return execFileSync("bash", ["-c", command.replace(/^diemon /, JSON.stringify(diemon) + " ")], { encoding: "utf8" });
}
// Every key of `want` (a CLI answer) the page also gives, equal, but for measurements.
function same(page, want, skip = []) {
  const bad = [];
  const ignored = new Set(["trials_per_sec", "threads", "command", ...skip]);
  for (const k of Object.keys(want)) {
    if (ignored.has(k) || !(k in page)) continue;
    if (JSON.stringify(page[k]) !== JSON.stringify(want[k])) bad.push(k + ": page " + JSON.stringify(page[k]) + ", CLI " + JSON.stringify(want[k]));
  }
  const shared = Object.keys(want).filter((k) => k in page && !ignored.has(k)).length;
  return { ok: bad.length === 0 && shared > 3, detail: bad.slice(0, 4).join("\n       ") || shared + " keys shared" };
}

const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
async function open(hash) {
  const p = await browser.newPage({ viewport: { width: W, height: 800 } });
  p.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  p.on("pageerror", (e) => errors.push(e.message));
  p.on("request", (r) => { if (!/^(file|blob|data):/.test(r.url())) requests.push(r.url()); });
  await p.goto(page_url + (hash || ""));
  await p.waitForFunction(() => window.diemon && window.diemon.ready, null, { timeout: 30000 });
  return p;
}
const answer = (p, name) => p.evaluate((n) => window.diemon.answers[n], name);
async function typeInto(p, selector, text) {
  await p.click(selector, { clickCount: 3 });
  await p.keyboard.press("Control+A");
  await p.keyboard.type(text);
}
async function runAndWait(p, tab) {
  await p.click("#" + tab + " [data-run]");
  await p.waitForFunction((t) => window.diemon.answers[t] && !document.querySelector("#" + t + " [data-run]").disabled, tab, { timeout: 120000 });
  return answer(p, tab);
}
// The page's summary rows of `tab` that the terminal's table of `args` lacks: each row's
// label, figure and CI must stand on one line of it, as printed.
async function terminalRows(p, tab, args) {
  const text = cli(args).split("\n").map((l) => l.replace(/\s+/g, " ").trim());
  const shown = await p.evaluate((t) => [...document.querySelectorAll("#" + t + " table.summary tbody tr")].map((r) => [...r.cells].map((c) => c.innerText.trim())), tab);
  const missing = shown.filter((c) => !text.includes(c.join(" ")));
  return shown.length >= 4 ? missing.map((c) => c.join(" ")) : ["only " + shown.length + " rows shown"];
}
// The widest thing laid out outside a scroll box, as scripts/browser-test measures it.
const widest = (p) => p.evaluate(() => {
  function scrolls(e) { for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) { const o = getComputedStyle(a).overflowX; if (o === "auto" || o === "scroll" || o === "hidden") return true; } return false; }
  let m = document.documentElement.scrollWidth;
  for (const e of document.body.querySelectorAll("*")) { if (scrolls(e)) continue; const r = e.getBoundingClientRect(); if (r.width && r.right > m) m = Math.ceil(r.right); }
  return m;
});

// 1. Typing an expression shows its exact table, as `diemon dist` gives it.
let p = await open("#tab=dice");
let p2;
await typeInto(p, "#dice [name=expr]", "3d6 + 2");
await p.waitForFunction(() => (window.diemon.answers.dice || {}).expr === "3d6 + 2", null, { timeout: 10000 });
let a = await answer(p, "dice");
let want = JSON.parse(cli(["dist", "3d6 + 2", "--json"]));
let s = same(a, want);
check("typing \"3d6 + 2\" gives the exact table of `diemon dist --json`", s.ok, s.detail);
const rows = await p.evaluate(() => [...document.querySelectorAll("#dice table.pmf tbody tr")].map((r) => r.innerText.replace(/\s+/g, " ").trim()));
const terminal = cli(["dist", "3d6 + 2"]).split("\n").filter((l) => /^\s+[<>]?-?\d+\s+\d/.test(l)).map((l) => l.replace(/#+/g, "").replace(/\s+/g, " ").trim());
check("the table shows the terminal's rows, digit for digit", rows.length > 10 && JSON.stringify(rows) === JSON.stringify(terminal), JSON.stringify(rows.slice(0, 2)) + " vs " + JSON.stringify(terminal.slice(0, 2)));

// The page rounds exact ties as the terminal (Rust) does: the cases crates/web tests too.
const cases = JSON.parse(readFileSync(new URL("rounding.json", import.meta.url), "utf8"));
const off = await p.evaluate((cs) => cs.filter(([x, d, f, e]) => Draw.fixed(x, d) !== f || Draw.exp(x, 3) !== e).map((c) => c.join(" ")), cases);
check("the page rounds as the terminal does (half to even)", off.length === 0, off.join("; "));

// 2. A bad expression shows where it is wrong, as the terminal does.
await typeInto(p, "#dice [name=expr]", "2d7 exp");
await p.waitForSelector("#dice pre.error", { timeout: 10000 });
const err = await p.textContent("#dice pre.error");
const marked = await p.evaluate(() => document.querySelector("#dice [name=expr]").classList.contains("bad"));
check("a bad expression shows a located error (column 3, a caret, the field marked)", err.includes("<expression>:1:3:") && err.includes("\n    ^") && marked, err);

// 3. A seeded duel prints what `diemon duel --json` prints, and its command prints it too.
p = await open("#tab=duel&duel.b.skill=d10&duel.b.use=3&duel.b.damage=1d6%2B1&duel.b.armor=2d6&duel.trials=300k&duel.seed=7");
a = await runAndWait(p, "duel");
want = JSON.parse(cli(["duel", "d6/2/1d6/4", "d10/3/1d6+1/2d6", "--trials", "300000", "--seed", "7", "--json"]));
s = same(a, want);
check("a seeded duel matches `diemon duel --json` digit for digit", s.ok && a.trials === 300000, s.detail);
s = same(JSON.parse(shell(a.command)), a);
check("the duel's CLI command prints the same figures", s.ok, a.command + "\n       " + s.detail);
const unmatched = await terminalRows(p, "duel", ["duel", "d6/2/1d6/4", "d10/3/1d6+1/2d6", "--trials", "300000", "--seed", "7"]);
check("the duel's table shows the terminal's rows, digit for digit", unmatched.length === 0, unmatched.join(" | "));

// 4. The address holds the question: opened afresh, it runs again to the same figures.
const shared_url = p.url();
const q = await open(shared_url.slice(shared_url.indexOf("#")));
await q.waitForFunction(() => window.diemon.answers.duel && !document.querySelector("#duel [data-run]").disabled, null, { timeout: 120000 });
s = same(await answer(q, "duel"), a);
check("a shared address reopens the same question with the same figures", s.ok && shared_url.includes("run=1"), shared_url + "\n       " + s.detail);
await q.close();

// 5. Stop: the duels run so far are kept, and the command offered reruns exactly them.
await p.fill("#duel [name=trials]", "5G");
await p.fill("#duel [name=target_ci]", "");
await p.click("#duel [data-run]");
await p.waitForFunction(() => document.querySelector("#duel progress").value > 100000, null, { timeout: 60000 });
await p.click("#duel [data-stop]");
await p.waitForFunction(() => window.diemon.answers.duel && !document.querySelector("#duel [data-run]").disabled, null, { timeout: 60000 });
a = await answer(p, "duel");
const status = await p.textContent("#duel .status");
s = same(JSON.parse(shell(a.command)), a, ["ended"]);
check("Stop keeps the duels run, and its command reruns exactly them", a.ended === "interrupted" && status.startsWith("stopped") && a.command.includes("--trials " + a.trials) && s.ok, status + " / " + a.command + "\n       " + s.detail);

// 5b. Two catalog units in the Duel tab: `diemon duel UNIT UNIT`.
p2 = await open("#tab=duel&duel.mode=units&duel.trials=20000&duel.seed=4");
a = await runAndWait(p2, "duel");
want = JSON.parse(cli(["duel", "hero-hand-weapon", "minifig-hand-weapon", "--trials", "20000", "--seed", "4", "--json"]));
s = same(a, want);
check("two catalog units in the Duel tab match `diemon duel UNIT UNIT --json`", s.ok && a.units_a === 1, s.detail);
await p2.close();

// 5c. The page never freezes: while a long run goes on in its worker, the page answers at
// once and the Dice tab still answers as you type.
await p.fill("#duel [name=trials]", "5G");
await p.click("#duel [data-run]");
await p.waitForFunction(() => document.querySelector("#duel progress").value > 10000, null, { timeout: 60000 });
const lag = await p.evaluate(() => new Promise((r) => { const t = performance.now(); setTimeout(() => r(performance.now() - t), 0); }));
await p.click('#tabs [data-tab="dice"]');
await typeInto(p, "#dice [name=expr]", "2d8 + 1");
await p.waitForFunction(() => (window.diemon.answers.dice || {}).expr === "2d8 + 1", null, { timeout: 10000 });
const still = await p.evaluate(() => document.querySelector("#duel [data-run]").disabled);
check("a run never freezes the page (a timer fires at once, Dice answers as you type)", lag < 250 && still, "timer after " + Math.round(lag) + " ms, run still going: " + still);
await p.click('#tabs [data-tab="duel"]');
await p.click("#duel [data-stop]");
await p.waitForFunction(() => !document.querySelector("#duel [data-run]").disabled, null, { timeout: 60000 });

// 6. A precision target stops where the command line stops.
await p.fill("#duel [name=trials]", "1M");
await p.fill("#duel [name=target_ci]", "0.004");
a = await runAndWait(p, "duel");
want = JSON.parse(cli(["duel", "d6/2/1d6/4", "d10/3/1d6+1/2d6", "--trials", "1000000", "--target-ci", "0.004", "--seed", "7", "--json"]));
s = same(a, want);
check("a duel to a target CI stops where `diemon duel --target-ci` stops", s.ok && a.ended === "precision target met", s.detail);
await p.close();

// 7. A squad battle from the catalog, CP-matched, with a policy changed.
p = await open("#tab=squad&squad.trials=20000&squad.seed=3&squad.b_position=advance&squad.a_sprint=close");
a = await runAndWait(p, "squad");
want = JSON.parse(cli(["duel", "--a", "minifig-hand-weapon", "--b", "hero-hand-weapon", "--budget", "44", "--b-position", "advance", "--a-sprint", "close", "--trials", "20000", "--seed", "3", "--json"]));
s = same(a, want);
check("a squad battle matches `diemon duel --budget --json`", s.ok, s.detail);
const off_rows = await terminalRows(p, "squad", ["duel", "--a", "minifig-hand-weapon", "--b", "hero-hand-weapon", "--budget", "44", "--b-position", "advance", "--a-sprint", "close", "--trials", "20000", "--seed", "3"]);
check("the battle's table shows the terminal's rows, digit for digit", off_rows.length === 0, off_rows.join(" | "));
s = same(JSON.parse(shell(a.command)), a);
check("the battle's CLI command prints the same figures", s.ok, a.command + "\n       " + s.detail);
await p.close();

// 7b. A catalog pasted into the page, as `--catalog FILE` reads it; its command, run beside
// the file saved as catalog.toml, prints the same figures.
const catalog_file = new URL("../../catalogs/example.toml", import.meta.url);
p = await open("#tab=squad&squad.a=ogre&squad.b=minifig-hand-weapon*3&squad.budget=&squad.trials=5000&squad.seed=2");
await p.click("#squad details summary");
await p.fill("#squad [name=catalog]", readFileSync(catalog_file, "utf8"));
a = await runAndWait(p, "squad");
want = JSON.parse(cli(["duel", "--catalog", fileURLToPath(catalog_file), "--a", "ogre", "--b", "minifig-hand-weapon*3", "--trials", "5000", "--seed", "2", "--json"]));
s = same(a, want);
const dir = mkdtempSync(path.join(tmpdir(), "diemon-page-"));
copyFileSync(catalog_file, path.join(dir, "catalog.toml"));
const again = JSON.parse(execFileSync("bash", ["-c", a.command.replace(/^diemon /, JSON.stringify(diemon) + " ")], { encoding: "utf8", cwd: dir }));
const s2 = same(again, a);
check("a pasted catalog's units fight as `--catalog` fields them, and the command agrees", s.ok && s2.ok && a.a.includes("ogre"), s.detail + " / " + s2.detail);
await p.close();

// 8. Rule options: set on their tab, in the address, in the figures and the command.
p = await open("#tab=options");
await p.selectOption("#opt-d4_bonus", "all");
await p.click('#tabs [data-tab="dice"]');
await typeInto(p, "#dice [name=expr]", "1d4 fire");
await p.waitForFunction(() => (window.diemon.answers.dice || {}).expr === "1d4 fire", null, { timeout: 10000 });
a = await answer(p, "dice");
want = JSON.parse(cli(["dist", "1d4 fire", "-o", "d4_bonus=all", "--json"]));
s = same(a, want);
check("an option set on its tab reaches the figures (d4_bonus=all)", s.ok && p.url().includes("o.d4_bonus=all") && a.command.includes("-o d4_bonus=all"), s.detail);
await p.close();

// 9. The burst and the pool, exactly.
p = await open("#tab=burst&burst.shots=4&marks.against_marks=2");
await p.waitForFunction(() => window.diemon.answers.burst && window.diemon.answers.marks, null, { timeout: 10000 });
s = same(await answer(p, "burst"), JSON.parse(cli(["burst", "--shots", "4", "--json"])));
check("a burst matches `diemon burst --json`", s.ok, s.detail);
s = same(await answer(p, "marks"), JSON.parse(cli(["marks", "--attr", "3,3", "--against-marks", "2", "--json"])));
check("a Marks pool matches `diemon marks --json`", s.ok, s.detail);

// 10. Every tab at a phone's width.
const wide = [];
for (const tab of ["dice", "skill", "duel", "squad", "burst", "options"]) {
  await p.click('#tabs [data-tab="' + tab + '"]');
  await p.waitForTimeout(300);
  const w = await widest(p);
  if (w > W) wide.push(tab + " " + w + "px");
}
check("nothing is wider than a " + W + "px screen", wide.length === 0, wide.join(", "));
await p.close();

// The page's weight: every file it loads, the built module included.
const here = path.join(path.dirname(fileURLToPath(import.meta.url)), "..");
const html = readFileSync(path.join(here, "index.html"), "utf8");
const files = ["index.html", ...[...html.matchAll(/(?:src|href)="([^"#:]+\.(?:js|css))"/g)].map((m) => m[1])];
const bytes = files.reduce((n, f) => n + statSync(path.join(here, f)).size, 0);
check("the page weighs under 2 MB (" + files.length + " files, " + (bytes / 1e6).toFixed(2) + " MB)", bytes < 2e6 && files.includes("diemon-wasm.js"), files.join(" "));

check("no request leaves the page", requests.length === 0, requests.slice(0, 3).join(" "));
check("no console error", errors.length === 0, errors.slice(0, 3).join(" | "));
await browser.close();
if (failed) {
  console.log(failed + " check(s) failed");
  process.exit(1);
}
console.log("the page passed every check");
