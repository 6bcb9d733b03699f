//! An experiment's run: every cell's typed question asked in turn, each answer kept in
//! DIR/cells/ the moment it is made, then the frames, the analysis and the report. A run
//! killed halfway resumes from the cells it kept ([`sweep`]).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use super::cell::Stamp;
use super::error::{Drive, RunError, io};
use super::{Cell, Experiment, ExperimentError};
use crate::analysis::frame::{WorthRow, distributions, summary, tables};
use crate::export::csv::Csv;
use crate::export::parquet::Parquet;
use crate::export::{Exporter, write_atomic, write_text_atomic};
use crate::question::{Answer, CellRun};
use diemon_core::sim::engine::Shard;
use diemon_core::sim::progress::Silent;
use diemon_core::sim::seed::BATCH;

/// Runs experiment `e` into `dir`: shard `shard` of it, if one, as `drive` says. Says what
/// it runs on `out` (a warning on `err`).
pub fn run(
    e: &Experiment,
    dir: &Path,
    shard: Option<Shard>,
    drive: Drive,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> Result<(), RunError> {
    io(writeln!(
        out,
        "{}: {} cell{} of {}, seed {}{}",
        e.name,
        e.cells.len(),
        diemon_core::plural::s(e.cells.len()),
        match e.target_ci {
            Some(t) => format!("up to {} trials until the 95% CI is within +-{t}", e.trials),
            None => format!("{} trials", e.trials),
        },
        e.seed,
        shard.map(|s| format!(", shard {s}")).unwrap_or_default()
    ))?;
    if let Some(s) = shard {
        empty_shard_warning(e, s, err);
    }
    sweep(
        e,
        &super::lock::lock(dir)?,
        &manifest(e, shard)?,
        shard.is_some(),
        drive,
        out,
        |i, cell| run_cell(e, i, cell, drive.threads, shard, Vec::new(), drive.cancel),
    )
    .map(|_| ())
}

/// Writes the report of `dir` and says where it is.
pub fn write_report(dir: &Path, out: &mut dyn Write) -> Result<(), RunError> {
    let files = crate::report::write(dir).map_err(|e| match e {
        crate::report::ReportError::Folder(f) => RunError::input(f.to_string()),
        other => RunError::other(other.to_string()),
    })?;
    let charts = files
        .iter()
        .filter(|f| f.extension().is_some_and(|e| e == "svg"))
        .count();
    let d = dir.display();
    let s = diemon_core::plural::s(charts);
    io(writeln!(
        out,
        "report: {d}/report.html (self-contained) and {d}/report.md, {charts} chart{s} in {d}/charts/"
    ))
}

/// Asks cell `i` of `e`: its typed question with the experiment's seed, trials and
/// `threads`, as `shard` of the run, or the sum of the shards' `tallies` (a merge).
pub fn run_cell(
    e: &Experiment,
    i: usize,
    cell: &Cell,
    threads: Option<usize>,
    shard: Option<Shard>,
    tallies: Vec<crate::question::tally::AnyTally>,
    cancel: &AtomicBool,
) -> Result<Answer, RunError> {
    ask_cell(
        i,
        cell,
        &CellRun {
            seed: e.seed,
            cell: i as u64,
            trials: e.trials,
            threads,
            shard,
            tallies,
            resume: None,
        },
        cancel,
    )
}

/// Runs cell `i` of `e` like [`run_cell`], going on from `resume`: the first trials of an
/// earlier run of the same cell to a lower cap (a price's race refines a cell this way).
pub fn run_cell_from(
    e: &Experiment,
    i: usize,
    threads: Option<usize>,
    resume: Option<crate::question::run::Resume>,
    cancel: &AtomicBool,
) -> Result<Answer, RunError> {
    ask_cell(
        i,
        &e.cells[i],
        &CellRun {
            seed: e.seed,
            cell: i as u64,
            trials: e.trials,
            threads,
            resume,
            ..CellRun::default()
        },
        cancel,
    )
}

fn ask_cell(i: usize, cell: &Cell, run: &CellRun, cancel: &AtomicBool) -> Result<Answer, RunError> {
    // A kept cell reads back to the same bits (`cell::unseal`), so a fresh run and a
    // resumed one build the same frames.
    cell.question
        .for_cell(run)
        .ask(&cell.opts, &Silent, cancel)
        .map_err(|err| RunError::other(format!("cell {}: {err}", i + 1)))
}

/// An experiment's errors, one per line, as a bad-input failure.
pub fn input_errors(es: Vec<ExperimentError>) -> RunError {
    RunError::input(
        es.iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

/// Produces every cell of `e` with `cell` (skipping cells a previous run with the same
/// manifest kept in DIR/cells/) and writes the frames and manifest into the folder `held`;
/// then the experiment's analysis, unless this is one `shard` of the run. Ctrl-C stops it
/// between cells (or inside one, which is then not kept) with [`RunError::Interrupted`].
/// Returns the fair-CP fits, if the experiment asks for them.
pub fn sweep(
    e: &Experiment,
    held: &super::lock::FolderLock,
    manifest: &str,
    shard: bool,
    drive: Drive,
    out: &mut dyn Write,
    mut cell: impl FnMut(usize, &Cell) -> Result<Answer, RunError>,
) -> Result<Vec<WorthRow>, RunError> {
    // One writer per folder: a second run into it is refused, so cells never mix.
    let dir = held.path();
    let parquet = Parquet {
        metadata: vec![("diemon_manifest".into(), manifest.to_string())],
    };
    let exporters = exporters(e, &parquet);
    let params: Vec<Vec<(String, String)>> = e.cells.iter().map(|c| c.params.clone()).collect();
    let mut reports = Vec::with_capacity(e.cells.len());
    let kept = open(e, dir, manifest, out)?;
    let n_kept = kept.iter().filter(|k| k.is_some()).count();
    let (cells_dir, stamp) = (dir.join("cells"), stamp_of(e, manifest));
    let (bar, cancel) = (drive.watch, drive.cancel);
    bar.begin(e.cells.len() as u64, n_kept as u64);
    for (i, (c, kept)) in e.cells.iter().zip(kept).enumerate() {
        let report = match kept {
            Some(r) => r,
            None => {
                bar.cell(&c.params);
                let r = match cell(i, c) {
                    // A cell cut short by Ctrl-C failed for that reason alone: nothing kept.
                    _ if cancel.load(Ordering::SeqCst) => {
                        bar.finish();
                        // The frames hold every cell finished so far, in order.
                        write_frames(&params, &reports, dir, &exporters)?;
                        return Err(interrupted_sweep(i, e.cells.len(), dir));
                    }
                    r => r?,
                };
                let text = super::cell::seal(&r, &stamp(i))
                    .map_err(|err| RunError::other(format!("cell {}: {err}", i + 1)))?;
                write_text_atomic(&cells_dir, &cell_file(i), &text)?;
                bar.done();
                r
            }
        };
        if !drive.quiet {
            let mut said = Ok(());
            bar.suspend(&mut || said = io(writeln!(out, "  {}", line(&c.params, &report))));
            said?;
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
    let fits = super::analyses::report(e, &reports, dir, &exporters, shard, out)?;
    // The report reads the frames back: a shard's are partial, and with no Parquet and no
    // CSV there is nothing to read.
    if !shard && e.report {
        super::maps::write(e, dir)?;
        write_report(dir, out)?;
    }
    Ok(fits)
}

/// Opens `dir` for a run of `e` under `manifest`: the cells a previous run with the same
/// manifest and resume key kept there, in order (none when it starts afresh, after the old
/// run's results and cells are cleared). Writes the resume key and the manifest.
fn open(
    e: &Experiment,
    dir: &Path,
    manifest: &str,
    out: &mut dyn Write,
) -> Result<Vec<Option<Answer>>, RunError> {
    // A re-run under the same manifest (experiment, catalogs, options, version, shard) and
    // the same resume key (those and diemon's source), kept beside the cells, resumes: the
    // cells already written are kept, the rest run. Anything else starts afresh.
    let cells_dir = dir.join("cells");
    let before = std::fs::read_to_string(dir.join("manifest.toml")).ok();
    let key = e.key();
    let resume = resumes(e, dir, manifest);
    let kept = if resume {
        kept_cells(e, dir, manifest)?
    } else {
        vec![None; e.cells.len()]
    };
    let n_kept = kept.iter().filter(|k| k.is_some()).count();
    if n_kept > 0 {
        io(writeln!(
            out,
            "resuming: {n_kept} of {} cells kept in {}",
            e.cells.len(),
            cells_dir.display()
        ))?;
    } else if before.is_some() && !resume && cells_dir.exists() {
        let why = if before.as_deref() == Some(manifest) {
            "another build of diemon (its source differs)"
        } else {
            "another experiment, catalog, option set or diemon version"
        };
        io(writeln!(
            out,
            "starting afresh: {} holds cells of {why}",
            dir.display()
        ))?;
    }
    if !resume && before.is_some() {
        // The old run's figures go before its manifest does: stopped at any point from
        // here, the folder shows no figure of the old run as if it were the new one's.
        crate::report::clear(dir)
            .map_err(|err| RunError::other(format!("cannot clear {}: {err}", dir.display())))?;
    }
    if !resume && cells_dir.exists() {
        std::fs::remove_dir_all(&cells_dir).map_err(|err| {
            RunError::other(format!("cannot clear {}: {err}", cells_dir.display()))
        })?;
    }
    std::fs::create_dir_all(&cells_dir)
        .map_err(|err| RunError::other(format!("cannot create {}: {err}", cells_dir.display())))?;
    write_text_atomic(&cells_dir, KEY_FILE, &key)?;
    write_text_atomic(dir, "manifest.toml", manifest)?;
    Ok(kept)
}

/// Whether a run of `e` under `manifest` into `dir` resumes there: the folder holds the
/// same manifest and the same resume key beside its cells.
pub fn resumes(e: &Experiment, dir: &Path, manifest: &str) -> bool {
    let read = |p: PathBuf| std::fs::read_to_string(p).ok();
    read(dir.join("manifest.toml")).as_deref() == Some(manifest)
        && read(dir.join("cells").join(KEY_FILE)) == Some(e.key())
}

/// How many of `e`'s cells a run under `manifest` into `dir` will find kept there (cell
/// files present; each is checked when the run reads it).
pub fn kept_count(e: &Experiment, dir: &Path, manifest: &str) -> usize {
    if !resumes(e, dir, manifest) {
        return 0;
    }
    (0..e.cells.len())
        .filter(|&i| dir.join("cells").join(cell_file(i)).exists())
        .count()
}

/// The cells kept in `dir/cells/` for a resumed run of `e` under `manifest`, in order. A
/// kept cell must be whole (its checksum) and carry this run's stamp (resume key, cell,
/// shard): a cell written by any other run is refused, never mixed in.
fn kept_cells(e: &Experiment, dir: &Path, manifest: &str) -> Result<Vec<Option<Answer>>, RunError> {
    let cells_dir = dir.join("cells");
    let stamp = stamp_of(e, manifest);
    let mut kept: Vec<Option<Answer>> = Vec::with_capacity(e.cells.len());
    for i in 0..e.cells.len() {
        let path = cells_dir.join(cell_file(i));
        let cell = match std::fs::read(&path).ok() {
            None => None,
            Some(bytes) => Some(super::cell::unseal(&bytes, &e.cells[i].question).map_err(
                |why| {
                    RunError::input(format!(
                        "{}: {why}\nhint: remove it and run the same command again: that cell \
                     runs again, the others are kept",
                        path.display()
                    ))
                },
            )?),
        };
        if let Some((_, s)) = &cell
            && *s != stamp(i)
        {
            return Err(RunError::input(format!(
                "{} was not written by this run (it holds {s}, this run writes {})\nhint: \
                 the folder mixes runs; remove {} or write elsewhere with --out",
                path.display(),
                stamp(i),
                dir.display()
            )));
        }
        kept.push(cell.map(|(a, _)| a));
    }
    Ok(kept)
}

/// The stamp each cell file carries: the run's resume key, the shard (from the manifest)
/// and the cell's index.
pub fn stamp_of(e: &Experiment, manifest: &str) -> impl Fn(usize) -> Stamp + use<> {
    let key = e.key();
    let shard = manifest
        .parse::<toml::Table>()
        .ok()
        .and_then(|t| t.get("shard").and_then(|s| s.as_str()).map(String::from));
    move |i| stamp(&key, i, shard.as_deref())
}

/// The stamp of cell `i` (0-based) written under resume key `key` as `shard` ("I/N") of a
/// run, or by a whole run.
pub fn stamp(key: &str, i: usize, shard: Option<&str>) -> Stamp {
    Stamp {
        key: key.to_string(),
        cell: i,
        shard: shard.map(String::from),
    }
}

/// Builds the frames of `reports` (the first cells, in order) and writes each with every
/// exporter, atomically; returns their names.
pub fn write_frames(
    params: &[Vec<(String, String)>],
    reports: &[Answer],
    dir: &Path,
    exporters: &[&dyn Exporter],
) -> Result<Vec<String>, RunError> {
    if reports.is_empty() {
        return Ok(Vec::new());
    }
    let reports: Vec<_> = reports.iter().map(Answer::row).collect();
    let reports = &reports[..];
    let frame = summary(params, reports)
        .map_err(|err| RunError::other(format!("cannot build the summary frame: {err}")))?;
    let hist = distributions(params, reports)
        .map_err(|err| RunError::other(format!("cannot build the distributions frame: {err}")))?;
    let more = tables(params, reports)
        .map_err(|err| RunError::other(format!("cannot build a table frame: {err}")))?;
    let mut written = vec!["summary".to_string(), "distributions".into()];
    written.extend(more.iter().map(|(n, _)| n.clone()));
    let frames = [frame, hist]
        .into_iter()
        .chain(more.into_iter().map(|(_, t)| t));
    for (name, mut f) in written.iter().zip(frames) {
        for exporter in exporters {
            write_atomic(*exporter, &mut f, dir, name)?;
        }
    }
    Ok(written)
}

/// The file beside the cells that holds the resume key ([`Experiment::key`]) they were
/// written under. Not in `manifest.toml`: the key hashes diemon's source, and a committed
/// report should change only when its figures or inputs do (issue 46); `cells/` is never
/// committed.
pub const KEY_FILE: &str = "resume-key";

/// A cell's report in DIR/cells/.
pub fn cell_file(i: usize) -> String {
    format!("{i:05}.json")
}

/// The failure after Ctrl-C stopped a sweep before cell `next` (0-based) of `total`.
pub fn interrupted_sweep(next: usize, total: usize, dir: &Path) -> RunError {
    RunError::Interrupted(format!(
        "interrupted: {next} of {total} cells are kept in {} (and in its frames)\n\
         hint: run the same command again to resume from cell {}",
        dir.display(),
        next + 1
    ))
}

/// The exporters the experiment's `outputs` ask for.
pub fn exporters<'a>(e: &Experiment, parquet: &'a Parquet) -> Vec<&'a dyn Exporter> {
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
pub fn empty_shard_warning(e: &Experiment, s: Shard, err: &mut dyn Write) {
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
        diemon_core::plural::es(batches),
        BATCH,
        batches + 1,
        s.count,
        s.count * BATCH,
        s.count
    );
}

/// One cell's parameters and its headline figure with its CI.
pub fn line(params: &[(String, String)], r: &Answer) -> String {
    let p = params
        .iter()
        .map(|(k, v)| format!("{k}={v}"))
        .collect::<Vec<_>>()
        .join(" ");
    let row = r.row();
    // A shard that drew none of the cell's batches has no figure to show.
    if row.figure("trials") == Some(crate::schema::Figure::Whole(0)) {
        return format!("{p:<30} no trials in this shard");
    }
    // A run with no headline (none yet) shows its trials.
    let column =
        crate::schema::headline(|c| row.figure(c).is_some()).map_or("trials", |h| h.column);
    let num = |f: Option<crate::schema::Figure>| f.and_then(|f| f.as_f64()).unwrap_or(f64::NAN);
    let ci = row
        .ci(column)
        .map(|[lo, hi]| format!(" [{:.4}, {:.4}]", num(Some(lo)), num(Some(hi))))
        .unwrap_or_default();
    format!("{p:<30} {column} {:.4}{ci}", num(row.figure(column)))
}

/// What the outputs came from: the experiment as resolved, the options, diemon's version,
/// the text of every user catalog and the shard when the run was one. The resume key, which
/// also hashes diemon's source, is kept beside the cells ([`KEY_FILE`]).
pub fn manifest(e: &Experiment, shard: Option<Shard>) -> Result<String, RunError> {
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
    toml::to_string(&t).map_err(|err| RunError::other(format!("cannot write the manifest: {err}")))
}
