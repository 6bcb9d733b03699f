//! `diemon run FILE`: an experiment file's sweep, exported as CSV and Parquet.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use clap::Args;

use super::progress::CellBar;
use super::{Failure, io};
use crate::analysis::frame::{distributions, summary, tables};
use crate::experiment::{self, Experiment};
use crate::export::csv::Csv;
use crate::export::parquet::Parquet;
use crate::export::{Exporter, write_atomic, write_text_atomic};
use crate::question::CellRun;
use crate::sim::engine::Shard;
use crate::sim::progress::Silent;
use crate::sim::seed::BATCH;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  diemon run                                   the default experiment (launcher-vs-swarm)
  diemon run experiments/hero-worth.toml       what a Hero is worth, in minifigs and CP
  diemon run experiments/cp-matched-duels.toml --out /tmp/duels --threads 2
  diemon run experiments/first-strike.toml --shard 2/4 --out /shared/first-strike-2
                                               one machine's quarter; `diemon merge` adds them

Writes DIR/manifest.toml first, then each cell's report to DIR/cells/ the moment it
finishes, so a killed run keeps the cells it finished and running the same experiment
again resumes where it stopped. At the end (or on Ctrl-C, from the cells finished) it
writes DIR/summary.csv and .parquet (one row per cell), DIR/distributions.csv and
.parquet (each cell's histograms, long form) and DIR/by_ring.csv and .parquet for
Explosions (kills by ring), with the manifest as Parquet key-value metadata, then the
report. Every file is written whole or not at all (a temporary file renamed into place).
One command writes a folder at a time. docs/cluster.md shows sharded runs on Slurm and
Kubernetes.")]
pub struct RunArgs {
    /// The experiment file (TOML; see experiments/). Without one, the built-in default:
    /// experiments/launcher-vs-swarm.toml.
    pub file: Option<PathBuf>,
    /// Where to write (default: reports/NAME, or reports/NAME-shard-I-of-N).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Worker threads for each cell (default: all cores). Never changes a result.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Run only shard I of N of every cell's trial batches (1-based), for a cluster; the
    /// shards' outputs add up exactly with `diemon merge`.
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    pub shard: Option<Shard>,
    /// No per-cell lines and no progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

pub fn run(
    a: &RunArgs,
    cancel: &AtomicBool,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), Failure> {
    let loaded = match &a.file {
        Some(f) => experiment::load(f),
        None => experiment::default_experiment(),
    };
    let e = loaded.map_err(input_errors)?;
    crate::question::run::check_threads(a.threads)?;
    if a.shard.is_some() && e.target_ci.is_some() {
        return Err(Failure::input(format!(
            "--shard: {} stops each cell at a CI target, which needs every batch in order\n\
             hint: shard an experiment of fixed trials (drop target_ci)",
            e.name
        )));
    }
    let dir = a.out.clone().unwrap_or_else(|| {
        PathBuf::from("reports").join(match a.shard {
            Some(s) => format!("{}-shard-{}-of-{}", e.name, s.index + 1, s.count),
            None => e.name.clone(),
        })
    });
    io(writeln!(
        out,
        "{}: {} cell{} of {}, seed {}{}",
        e.name,
        e.cells.len(),
        if e.cells.len() == 1 { "" } else { "s" },
        match e.target_ci {
            Some(t) => format!("up to {} trials until the 95% CI is within +-{t}", e.trials),
            None => format!("{} trials", e.trials),
        },
        e.seed,
        a.shard.map(|s| format!(", shard {s}")).unwrap_or_default()
    ))?;
    if let Some(s) = a.shard {
        empty_shard_warning(&e, s, err);
    }
    let shard = a.shard.is_some();
    sweep(
        &e,
        &dir,
        &manifest(&e, a.shard)?,
        shard,
        a.quiet,
        cancel,
        out,
        |i, cell| run_cell(&e, i, cell, a.threads, a.shard, Vec::new(), cancel),
    )
}

/// Asks cell `i` of `e`: its typed question with the experiment's seed, trials and
/// `threads`, as `shard` of the run, or the sum of the shards' `tallies` (a merge).
pub(super) fn run_cell(
    e: &Experiment,
    i: usize,
    cell: &experiment::Cell,
    threads: Option<usize>,
    shard: Option<Shard>,
    tallies: Vec<String>,
    cancel: &AtomicBool,
) -> Result<serde_json::Value, Failure> {
    let q = cell.question.for_cell(&CellRun {
        seed: e.seed,
        cell: i as u64,
        trials: e.trials,
        threads,
        shard,
        tallies,
    });
    let failed = |m: &dyn std::fmt::Display| Failure::other(format!("cell {}: {m}", i + 1));
    let answer = q
        .ask(&cell.opts, &Silent, cancel)
        .map_err(|err| failed(&err))?;
    // Through the text the cell file keeps: a fresh run and a resumed one build their frames
    // from the same bytes, to the last digit.
    let text = serde_json::to_string(&answer).map_err(|err| failed(&err))?;
    serde_json::from_str(&text).map_err(|err| failed(&err))
}

/// An experiment's errors, one per line, as a bad-input failure.
pub(super) fn input_errors(es: Vec<experiment::ExperimentError>) -> Failure {
    Failure::input(
        es.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Produces every cell of `e` with `cell` (skipping cells a previous run with the same
/// manifest kept in DIR/cells/) and writes the frames and manifest into `dir` after each;
/// then the experiment's analysis, unless this is one `shard` of the run. Ctrl-C stops it
/// between cells (or inside one, which is then not kept) with exit 130.
#[allow(clippy::too_many_arguments)]
pub(super) fn sweep(
    e: &Experiment,
    dir: &Path,
    manifest: &str,
    shard: bool,
    quiet: bool,
    cancel: &AtomicBool,
    out: &mut dyn Write,
    mut cell: impl FnMut(usize, &experiment::Cell) -> Result<serde_json::Value, Failure>,
) -> Result<(), Failure> {
    let _guard = super::interrupt::Guard::new();
    // One writer per folder: a second run into it is refused, so cells never mix.
    let _lock = super::lock::lock(dir)?;
    // The Parquet files carry the manifest without its resume key: the key hashes diemon's
    // source, and a frame's bytes should change only when its figures or inputs do.
    let parquet = Parquet {
        metadata: vec![("diemon_manifest".into(), without_key(manifest))],
    };
    let exporters = exporters(e, &parquet);
    let params: Vec<Vec<(String, String)>> = e.cells.iter().map(|c| c.params.clone()).collect();
    let mut reports = Vec::with_capacity(e.cells.len());
    // A re-run under the same manifest (the resume key: experiment, catalogs, options,
    // version; and the shard) resumes: the cells already written are kept, the rest run.
    // Anything else starts afresh.
    let cells_dir = dir.join("cells");
    let before = std::fs::read_to_string(dir.join("manifest.toml")).ok();
    let resume = before.as_deref() == Some(manifest);
    // A kept cell must carry this run's stamp (resume key, cell, shard): a cell written by
    // any other run is refused, never mixed in.
    let stamp = stamp_of(e, manifest);
    let mut kept: Vec<Option<serde_json::Value>> = Vec::with_capacity(e.cells.len());
    for i in 0..e.cells.len() {
        let path = cells_dir.join(cell_file(i));
        let cell = resume
            .then(|| std::fs::read(&path).ok())
            .flatten()
            .and_then(|b| serde_json::from_slice::<serde_json::Value>(&b).ok());
        if let Some(c) = &cell
            && c.get("stamp") != Some(&stamp(i))
        {
            return Err(Failure::input(format!(
                "{} was not written by this run (its stamp is {}, this run's {})\nhint: \
                 the folder mixes runs; remove {} or write elsewhere with --out",
                path.display(),
                c.get("stamp").map_or("missing".into(), |s| s.to_string()),
                stamp(i),
                dir.display()
            )));
        }
        kept.push(cell);
    }
    let n_kept = kept.iter().filter(|k| k.is_some()).count();
    if n_kept > 0 {
        io(writeln!(
            out,
            "resuming: {n_kept} of {} cells kept in {}",
            e.cells.len(),
            cells_dir.display()
        ))?;
    } else if before.is_some() && !resume && cells_dir.exists() {
        io(writeln!(
            out,
            "starting afresh: {} holds cells of another experiment, catalog, option set or \
             diemon version (its resume key differs)",
            dir.display()
        ))?;
    }
    if !resume && cells_dir.exists() {
        std::fs::remove_dir_all(&cells_dir).map_err(|err| {
            Failure::other(format!("cannot clear {}: {err}", cells_dir.display()))
        })?;
    }
    std::fs::create_dir_all(&cells_dir)
        .map_err(|err| Failure::other(format!("cannot create {}: {err}", cells_dir.display())))?;
    write_text_atomic(dir, "manifest.toml", manifest).map_err(Failure::other)?;
    let bar = CellBar::new(e.cells.len() as u64, n_kept as u64, quiet);
    for (i, (c, kept)) in e.cells.iter().zip(kept).enumerate() {
        let report = match kept {
            Some(r) => r,
            None => {
                bar.cell(&c.params);
                let mut r = match cell(i, c) {
                    // A cell cut short by Ctrl-C failed for that reason alone: nothing kept.
                    _ if cancel.load(Ordering::SeqCst) => {
                        bar.finish();
                        // The frames hold every cell finished so far, in order.
                        write_frames(&params, &reports, dir, &exporters)?;
                        return Err(interrupted_sweep(i, e.cells.len(), dir));
                    }
                    r => r?,
                };
                r["stamp"] = stamp(i);
                write_text_atomic(&cells_dir, &cell_file(i), &r.to_string())
                    .map_err(Failure::other)?;
                bar.done();
                r
            }
        };
        if !quiet {
            bar.suspend(|| io(writeln!(out, "  {}", line(&c.params, &report))))?;
        }
        reports.push(report);
    }
    bar.finish();
    // The cell files are the durable record, written as each cell finishes; the frames are
    // built once from all of them (rewriting them after every cell made a run's time grow
    // with the square of its cells).
    let written = write_frames(&params, &reports, dir, &exporters)?;
    io(writeln!(
        out,
        "wrote {}, each {}, and manifest.toml",
        written
            .iter()
            .map(|n| dir.join(n).display().to_string())
            .collect::<Vec<_>>()
            .join(", "),
        exporters
            .iter()
            .map(|x| format!(".{}", x.extension()))
            .collect::<Vec<_>>()
            .join(" and ")
    ))?;
    super::analyses::report(e, &reports, dir, &exporters, shard, out)?;
    // The report reads the frames back: a shard's are partial, and with no Parquet and no
    // CSV there is nothing to read.
    if !shard {
        super::report::write(dir, out)?;
    }
    Ok(())
}

/// The stamp each cell file carries: the run's resume key, the shard (from the manifest)
/// and the cell's index.
fn stamp_of(e: &Experiment, manifest: &str) -> impl Fn(usize) -> serde_json::Value + use<> {
    let key = e.key();
    let shard = manifest
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("shard").and_then(|s| s.as_str()).map(String::from));
    move |i| serde_json::json!({ "key": key, "cell": i, "shard": shard })
}

/// Builds the frames of `reports` (the first cells, in order) and writes each with every
/// exporter, atomically; returns their names.
fn write_frames(
    params: &[Vec<(String, String)>],
    reports: &[serde_json::Value],
    dir: &Path,
    exporters: &[&dyn Exporter],
) -> Result<Vec<String>, Failure> {
    if reports.is_empty() {
        return Ok(Vec::new());
    }
    let frame = summary(params, reports)
        .map_err(|err| Failure::other(format!("cannot build the summary frame: {err}")))?;
    let hist = distributions(params, reports)
        .map_err(|err| Failure::other(format!("cannot build the distributions frame: {err}")))?;
    let more = tables(params, reports)
        .map_err(|err| Failure::other(format!("cannot build a table frame: {err}")))?;
    let mut written = vec!["summary".to_string(), "distributions".into()];
    written.extend(more.iter().map(|(n, _)| n.clone()));
    let frames = [frame, hist]
        .into_iter()
        .chain(more.into_iter().map(|(_, t)| t));
    for (name, mut f) in written.iter().zip(frames) {
        for exporter in exporters {
            write_atomic(*exporter, &mut f, dir, name).map_err(Failure::other)?;
        }
    }
    Ok(written)
}

/// The manifest's text without its `key` line.
fn without_key(manifest: &str) -> String {
    manifest
        .lines()
        .filter(|l| !l.starts_with("key = "))
        .map(|l| format!("{l}\n"))
        .collect()
}

/// A cell's report in DIR/cells/.
fn cell_file(i: usize) -> String {
    format!("{i:05}.json")
}

/// The failure after Ctrl-C stopped a sweep before cell `next` (0-based) of `total`.
fn interrupted_sweep(next: usize, total: usize, dir: &Path) -> Failure {
    Failure {
        code: super::EXIT_INTERRUPTED,
        message: format!(
            "interrupted: {next} of {total} cells are kept in {} (and in its frames)\n\
             hint: run the same command again to resume from cell {}",
            dir.display(),
            next + 1
        ),
    }
}

/// The exporters the experiment's `outputs` ask for.
pub(super) fn exporters<'a>(e: &Experiment, parquet: &'a Parquet) -> Vec<&'a dyn Exporter> {
    let mut v: Vec<&dyn Exporter> = Vec::new();
    if e.outputs.csv {
        v.push(&Csv);
    }
    if e.outputs.parquet {
        v.push(parquet);
    }
    v
}

/// Warns on stderr when shard `s` draws no batch of a cell: trials are dealt to shards a
/// batch at a time, so a shard past the cell's last batch runs nothing (its frames keep the
/// schema, with empty figures, and `diemon merge` still adds up exactly).
fn empty_shard_warning(e: &Experiment, s: Shard, err: &mut dyn Write) {
    let batches = e.trials.div_ceil(BATCH);
    if s.index < batches {
        return;
    }
    let _ = writeln!(
        err,
        "warning: shard {s} runs no trials: {} trials a cell are {batches} batch{} of {} \
         trials, dealt to the shards in turn, so shards {} to {} get none\n\
         hint: use at least {} trials for {} shards (10,000,000 trials are 153 batches), \
         or fewer shards",
        e.trials,
        if batches == 1 { "" } else { "es" },
        BATCH,
        batches + 1,
        s.count,
        s.count * BATCH,
        s.count
    );
}

/// One cell's parameters and its key figure with its CI.
fn line(params: &[(String, String)], r: &serde_json::Value) -> String {
    let p = params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let key = ["p_a_wins", "mean_kills", "p_wins", "p_competent"]
        .into_iter()
        .find(|k| r.get(k).is_some())
        .unwrap_or("trials");
    // A shard that drew none of the cell's batches has no figure to show.
    if r.get("trials").and_then(|t| t.as_u64()) == Some(0) {
        return format!("{p:<30} no trials in this shard");
    }
    let ci = r
        .get(format!("ci_{}", key.trim_start_matches("p_")))
        .or_else(|| r.get(format!("ci_{key}")))
        .and_then(|c| c.as_array().cloned())
        .map(|c| {
            format!(
                " [{:.4}, {:.4}]",
                c[0].as_f64().unwrap_or(f64::NAN),
                c.get(1).and_then(|v| v.as_f64()).unwrap_or(f64::NAN)
            )
        })
        .unwrap_or_default();
    format!(
        "{p:<30} {key} {:.4}{ci}",
        r.get(key).and_then(|v| v.as_f64()).unwrap_or(f64::NAN)
    )
}

/// What the outputs came from: the experiment as resolved, the options, diemon's version,
/// the text of every user catalog, the shard when the run was one, and the resume key
/// ([`Experiment::key`]) that hashes all of them but the shard.
pub(super) fn manifest(e: &Experiment, shard: Option<Shard>) -> Result<String, Failure> {
    let mut t = toml::Table::new();
    t.insert(
        "diemon_version".into(),
        env!("CARGO_PKG_VERSION").to_string().into(),
    );
    t.insert("name".into(), e.name.clone().into());
    t.insert("description".into(), e.description.clone().into());
    t.insert("kind".into(), e.kind.name().to_string().into());
    t.insert("seed".into(), (e.seed as i64).into());
    t.insert("trials".into(), (e.trials as i64).into());
    let mut opts = toml::Table::new();
    for (k, v) in e.opts.pairs() {
        opts.insert(k.into(), v.into());
    }
    t.insert("options".into(), opts.into());
    t.insert(
        "axes".into(),
        toml::Value::Array(e.axes.iter().map(|a| a.clone().into()).collect()),
    );
    t.insert("cells".into(), (e.cells.len() as i64).into());
    if let Some(s) = shard {
        t.insert("shard".into(), s.to_string().into());
    }
    t.insert("source".into(), e.text.clone().into());
    if !e.catalogs.is_empty() {
        let mut c = toml::Table::new();
        for (path, text) in &e.catalogs {
            c.insert(path.clone(), text.clone().into());
        }
        t.insert("catalogs".into(), c.into());
    }
    t.insert("key".into(), e.key().into());
    toml::to_string(&t).map_err(|err| Failure::other(format!("cannot write the manifest: {err}")))
}
