//! Merging the shards of a run: each shard's DIR holds its manifest (the experiment,
//! options, version and `shard = "I/N"`) and every cell's answer with its raw tally. The
//! merge checks the shards belong together and cover 1..N once each, adds each cell's
//! tallies, and has the cell's question answer the sum, so the frames are exactly those of
//! the unsharded run.

use crate::question::tally::AnyTally;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

use super::error::{Drive, RunError, Watch, io};
use super::sweep::{cell_file, input_errors, manifest, run_cell, stamp, sweep};
use diemon_core::sim::engine::Shard;

/// Adds up the shards in `dirs` into `out_dir` (default reports/NAME), as one machine's
/// run would have written it.
pub fn merge(
    dirs: &[PathBuf],
    out_dir: Option<&PathBuf>,
    quiet: bool,
    watch: &dyn Watch,
    cancel: &AtomicBool,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let shards = Shards::read(dirs)?;
    let e = shards.experiment()?;
    let dir = out_dir
        .cloned()
        .unwrap_or_else(|| PathBuf::from("reports").join(&e.name));
    shards.beside(&dir, &e.name)?;
    let tallies = shards.tallies(&e)?;
    let n = shards.list.len();
    io(writeln!(
        out,
        "{}: {} cell{}, {n} shard{} added up",
        e.name,
        e.cells.len(),
        diemon_core::plural::s(e.cells.len()),
        diemon_core::plural::s(n)
    ))?;
    let drive = Drive {
        threads: Some(1),
        quiet,
        watch,
        cancel,
    };
    write_merged(&e, &dir, &tallies, drive, out)
}

/// The shards of one run, checked to belong together and to cover 1..N once each.
struct Shards {
    /// Each shard and its folder, in shard order.
    list: Vec<(Shard, PathBuf)>,
    /// Each folder's `shard` as its manifest writes it: its cells' stamps carry the same.
    labels: BTreeMap<PathBuf, Option<String>>,
    /// The manifest they share (without `shard`), and the first one's path.
    table: toml::Table,
    first_path: PathBuf,
}

impl Shards {
    /// Reads each folder's manifest and checks the shards belong together.
    fn read(dirs: &[PathBuf]) -> Result<Shards, RunError> {
        // Each shard's manifest, without its `shard` line: they must all be the same.
        let mut shards: Vec<(Shard, PathBuf)> = Vec::new();
        // Each folder's `shard` as its manifest writes it: its cells' stamps carry the same.
        let mut labels: BTreeMap<PathBuf, Option<String>> = BTreeMap::new();
        let mut common: Option<(toml::Table, PathBuf)> = None;
        for dir in dirs {
            let path = dir.join("manifest.toml");
            let text = std::fs::read_to_string(&path).map_err(|e| {
                RunError::input(format!(
                    "{}: cannot read it: {e}\nhint: give the folders `diemon run --shard I/N --out DIR` wrote",
                    path.display()
                ))
            })?;
            let mut table: toml::Table = text.parse().map_err(|e| {
                RunError::input(format!("{}: not a diemon manifest: {e}", path.display()))
            })?;
            let label = table.remove("shard");
            let shard = match &label {
                None => Shard::WHOLE,
                Some(toml::Value::String(s)) => Shard::parse(s)
                    .map_err(|e| RunError::input(format!("{}: shard {e}", path.display())))?,
                Some(v) => {
                    return Err(RunError::input(format!(
                        "{}: shard = {v}: expected \"I/N\"",
                        path.display()
                    )));
                }
            };
            match &common {
                None => common = Some((table, path.clone())),
                Some((first, first_path)) if *first != table => {
                    return Err(RunError::input(format!(
                        "{} and {} come from different experiments (or options, seeds, versions)\n\
                         hint: merge only the shards of one `diemon run FILE --shard I/N`",
                        first_path.display(),
                        path.display()
                    )));
                }
                Some(_) => {}
            }
            labels.insert(
                dir.clone(),
                label.and_then(|l| l.as_str().map(String::from)),
            );
            shards.push((shard, dir.clone()));
        }
        let Some((table, first_path)) = common else {
            return Err(RunError::input(
                "no shard folders to merge\nhint: give the folders `diemon run --shard I/N --out DIR` wrote",
            ));
        };
        let n = shards[0].0.count;
        if let Some((s, d)) = shards.iter().find(|(s, _)| s.count != n) {
            return Err(RunError::input(format!(
                "{} is shard {s}, but {} is shard {}: the shards of one run share N",
                d.display(),
                shards[0].1.display(),
                shards[0].0
            )));
        }
        shards.sort_by_key(|(s, _)| s.index);
        for w in shards.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(RunError::input(format!(
                    "shard {} is given twice ({} and {})",
                    w[0].0,
                    w[0].1.display(),
                    w[1].1.display()
                )));
            }
        }
        let missing: Vec<String> = (0..n)
            .filter(|&i| !shards.iter().any(|(s, _)| s.index == i))
            .map(|i| format!("{}/{n}", i + 1))
            .collect();
        if !missing.is_empty() {
            return Err(RunError::input(format!(
                "shard{} {} {} missing\nhint: merge needs the folder of every shard",
                diemon_core::plural::s(missing.len()),
                missing.join(", "),
                if missing.len() == 1 { "is" } else { "are" },
            )));
        }
        let version = table.get("diemon_version").and_then(|v| v.as_str());
        if version != Some(env!("CARGO_PKG_VERSION")) {
            return Err(RunError::input(format!(
                "{}: written by diemon {}, this is {}\nhint: merge with the version that ran the shards",
                first_path.display(),
                version.unwrap_or("(unknown)"),
                env!("CARGO_PKG_VERSION")
            )));
        }
        Ok(Shards {
            list: shards,
            labels,
            table,
            first_path,
        })
    }

    /// The experiment the shards ran, from their manifest (its catalogs as kept there).
    fn experiment(&self) -> Result<super::Experiment, RunError> {
        let (table, first_path) = (&self.table, &self.first_path);
        let source = table
            .get("source")
            .and_then(|v| v.as_str())
            .ok_or_else(|| RunError::input(format!("{}: no source", first_path.display())))?;
        // The cells run from the catalogs the shards ran, as their manifests keep them.
        let kept: BTreeMap<String, String> = table
            .get("catalogs")
            .and_then(|c| c.as_table())
            .map(|c| {
                c.iter()
                    .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                    .collect()
            })
            .unwrap_or_default();
        super::parse(
            &format!("{} (source)", first_path.display()),
            source,
            &super::Catalogs::Kept(&kept),
        )
        .map_err(input_errors)
    }

    /// Refuses an `--out` (`dir`) that is a shard's folder, lies inside one or holds one:
    /// --out is replaced whole, and inputs are never touched. `name`: the experiment's.
    fn beside(&self, dir: &std::path::Path, name: &str) -> Result<(), RunError> {
        // Inputs are never touched: no writing into a shard's folder or anything inside one,
        // and no --out that holds one (--out is replaced whole).
        for (s, d) in &self.list {
            let Some(how) = overlap(dir, d) else {
                continue;
            };
            return Err(RunError::input(format!(
                "--out {} {how} shard {s}'s folder {}: a merge replaces --out whole and never \
                 touches its inputs\n\
                 hint: merge into a folder beside the shards, e.g. --out reports/{}",
                dir.display(),
                d.display(),
                name
            )));
        }
        Ok(())
    }

    /// Each cell's tallies, one a shard, from sealed cell files stamped by this build.
    fn tallies(&self, e: &super::Experiment) -> Result<Vec<Vec<AnyTally>>, RunError> {
        // Every shard must have finished every cell, under this build, before anything is
        // written.
        let key = e.key();
        let mut tallies: Vec<Vec<AnyTally>> = Vec::with_capacity(e.cells.len());
        for i in 0..e.cells.len() {
            let mut row = Vec::with_capacity(self.list.len());
            for (s, d) in &self.list {
                let path = d.join("cells").join(cell_file(i));
                let cell = match std::fs::read(&path) {
                    Err(_) => None,
                    Ok(bytes) => Some(super::cell::unseal(&bytes, &e.cells[i].question).map_err(|why| {
                        RunError::input(format!(
                            "{} (shard {s}): {why}\nhint: remove it and run that shard's command \
                             again: that cell runs again. Nothing was written.",
                            path.display()
                        ))
                    })?),
                };
                let tally = cell
                    .as_ref()
                    .and_then(|(r, _)| r.tally().cloned())
                    .ok_or_else(|| {
                        RunError::input(format!(
                            "{} (shard {s}) has not finished cell {} of {}\n\
                             hint: run that shard's command again; it resumes. Nothing was written.",
                            d.display(),
                            i + 1,
                            e.cells.len()
                        ))
                    })?;
                let want = stamp(&key, i, self.labels[d].as_deref());
                let found = cell.as_ref().map(|(_, s)| s);
                if found != Some(&want) {
                    return Err(RunError::input(format!(
                        "{}: not cell {} of shard {s} of this run under this build of diemon \
                         (it holds {}, expected {want})\n\
                         hint: run that shard's command again with this diemon into a fresh \
                         --out, then merge; nothing was written",
                        path.display(),
                        i + 1,
                        found.map_or("no stamp".into(), |f| f.to_string()),
                    )));
                }
                row.push(tally);
            }
            tallies.push(row);
        }
        Ok(tallies)
    }
}

/// Writes the merged run of `e` from the shards' `tallies` into `dir`.
fn write_merged(
    e: &super::Experiment,
    dir: &std::path::Path,
    tallies: &[Vec<AnyTally>],
    drive: Drive,
    out: &mut dyn Write,
) -> Result<(), RunError> {
    let merged = manifest(e, None)?;
    // Written in a folder beside --out, renamed into place once whole: a merge that fails
    // halfway leaves --out as it was. The lock keeps other writers out of --out meanwhile.
    let existed = dir.exists();
    let _lock = super::lock::lock(dir)?;
    let name = dir
        .file_name()
        .map_or("merge".into(), |n| n.to_string_lossy().into_owned());
    // Holding --out's lock, no other merge into it is alive: the folders a killed one left
    // beside it are stale.
    clear_leftovers(dir, &name);
    let tmp = dir.with_file_name(format!(".{name}.merging-{}", std::process::id()));
    let held = super::lock::lock(&tmp)?;
    let mut said = Vec::new();
    let done = sweep(e, &held, &merged, false, drive, &mut said, |i, cell| {
        run_cell(e, i, cell, Some(1), None, tallies[i].clone(), drive.cancel)
    })
    .map(|_| ());
    // What the sweep said names the temporary folder; the reader gets the final one.
    let said = String::from_utf8_lossy(&said)
        .replace(&tmp.display().to_string(), &dir.display().to_string());
    if let Err(f) = done {
        let _ = std::fs::remove_dir_all(&tmp);
        if !existed {
            // Only the lock was ever there.
            let _ = std::fs::remove_dir_all(dir);
        }
        io(out.write_all(said.as_bytes()))?;
        return Err(f);
    }
    let old = dir.with_file_name(format!(".{name}.replaced-{}", std::process::id()));
    let had = dir.exists();
    if had {
        std::fs::rename(dir, &old)
            .map_err(|err| RunError::other(format!("cannot replace {}: {err}", dir.display())))?;
    }
    std::fs::rename(&tmp, dir)
        .map_err(|err| RunError::other(format!("cannot write {}: {err}", dir.display())))?;
    if had {
        let _ = std::fs::remove_dir_all(&old);
    }
    io(out.write_all(said.as_bytes()))
}

/// Removes the `.NAME.merging-PID` and `.NAME.replaced-PID` folders a killed merge into
/// `dir` (named `name`) left beside it. Call it only holding `dir`'s lock.
fn clear_leftovers(dir: &std::path::Path, name: &str) {
    let parent = match dir.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => std::path::Path::new("."),
    };
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for entry in entries.flatten() {
        let file = entry.file_name().to_string_lossy().into_owned();
        let left = [".merging-", ".replaced-"].iter().any(|k| {
            file.strip_prefix(&format!(".{name}{k}"))
                .is_some_and(|pid| !pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit()))
        });
        if left && entry.path().is_dir() {
            let _ = std::fs::remove_dir_all(entry.path());
        }
    }
}

/// `p` as an absolute path with `.` and `..` resolved, whether or not it exists yet (the
/// longest existing ancestor is canonicalised, so symbolic links resolve as well).
/// How a merge's `out` overlaps an input folder, however either is spelled: it "is" it,
/// "lies inside" it or "holds" it; `None` when they stand apart.
pub(crate) fn overlap(out: &std::path::Path, input: &std::path::Path) -> Option<&'static str> {
    let (target, input) = (absolute(out), absolute(input));
    if target == input {
        Some("is")
    } else if target.starts_with(&input) {
        Some("lies inside")
    } else if input.starts_with(&target) {
        Some("holds")
    } else {
        None
    }
}

fn absolute(p: &std::path::Path) -> PathBuf {
    let p = std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let mut rest = Vec::new();
    let mut head = p.as_path();
    loop {
        if let Ok(c) = head.canonicalize() {
            let mut out = c;
            for part in rest.iter().rev() {
                out.push(part);
            }
            return out;
        }
        match (head.parent(), head.file_name()) {
            (Some(parent), Some(name)) => {
                rest.push(name.to_os_string());
                head = parent;
            }
            _ => return p,
        }
    }
}
