// The page's speed against the native binary on one thread (docs/performance.md, "The
// browser page"): the default 1 v 1 minifig duel and the default 6 v 6 squad battle, run in
// the page's worker as a reader runs them (Run, steps of about a tenth of a second), and the
// same questions by `diemon duel --threads 1`. Three runs each; the median is reported.
//
//   node web/test/bench.mjs PATH/TO/diemon
import { execFileSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";
import path from "node:path";
import { chromium } from "playwright-core";

const diemon = path.resolve(process.argv[2]);
const url = pathToFileURL(path.join(path.dirname(fileURLToPath(import.meta.url)), "..", "index.html")).href;
const median = (xs) => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || "/usr/bin/chromium", args: ["--no-sandbox"] });
const version = browser.version();

async function inPage(tab, hash) {
  const p = await browser.newPage();
  await p.goto(url + "#tab=" + tab + "&" + hash);
  await p.waitForFunction(() => window.diemon && window.diemon.ready, null, { timeout: 30000 });
  await p.click("#" + tab + " [data-run]");
  await p.waitForFunction((t) => window.diemon.answers[t] && !document.querySelector("#" + t + " [data-run]").disabled, tab, { timeout: 600000 });
  const a = await p.evaluate((t) => window.diemon.answers[t], tab);
  await p.close();
  return a;
}
function native(args) {
  return JSON.parse(execFileSync(diemon, ["duel", ...args, "--threads", "1", "--json"], { encoding: "utf8" }));
}

const rows = [];
for (const [name, tab, hash, args] of [
  ["1 v 1 minifig duel (diemon duel)", "duel", "duel.trials=20M", ["--trials", "20M"]],
  ["6 v 6 minifig-hand-weapon, 12\" apart", "squad", "squad.a=minifig-hand-weapon*6&squad.b=minifig-hand-weapon*6&squad.budget=&squad.trials=200k",
    ["--a", "minifig-hand-weapon*6", "--b", "minifig-hand-weapon*6", "--trials", "200k"]],
]) {
  const page = [], cli = [];
  let same = true;
  for (let i = 0; i < 3; i++) {
    const a = await inPage(tab, hash);
    const n = native(args);
    same = same && a.p_a_wins === n.p_a_wins && a.trials === n.trials;
    page.push(a.trials_per_sec);
    cli.push(n.trials_per_sec);
  }
  rows.push([name, median(page), median(cli), same]);
}
await browser.close();
console.log("Chromium " + version + ", one worker; native: diemon --threads 1\n");
console.log("| question | page | native, 1 thread | page / native | same digits |");
console.log("|---|---|---|---|---|");
for (const [name, p, n, same] of rows) {
  const f = (x) => x >= 1e6 ? (x / 1e6).toFixed(2) + " M/s" : (x / 1e3).toFixed(1) + " k/s";
  console.log("| " + name + " | " + f(p) + " | " + f(n) + " | " + (p / n).toFixed(2) + " | " + (same ? "yes" : "NO") + " |");
}
