//! Reports: what a run found, for people who would rather look than read.
//!
//! [`write()`] reads a run's folder back ([`frames::Frames`]: the Parquet files and the
//! manifest in their metadata), picks the figures the frames support ([`build`]), draws
//! each with plotters to `charts/STEM.svg` and `.png` ([`chart`]), and writes `report.md`
//! (charts linked) and a self-contained `report.html` (charts inlined) with [`page`]. It
//! needs nothing but the folder, so `diemon report DIR` regenerates a report from the
//! Parquet files alone, and `diemon run` ends by calling it.

pub mod about;
pub mod battles;
pub mod build;
pub mod chart;
pub mod frames;
pub mod index;
pub mod map;
pub mod page;
pub mod sheet;

use std::path::{Path, PathBuf};

use crate::export::{ExportError, write_bytes_atomic, write_text_atomic};

/// Why a report was not written.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ReportError {
    /// The folder is not a run's, or its frames do not read: the input's fault.
    #[error(transparent)]
    Folder(#[from] frames::FolderError),
    /// A chart did not draw: a bug or a broken build.
    #[error(transparent)]
    Draw(#[from] chart::DrawError),
    /// A file was not written (a full disk).
    #[error(transparent)]
    Export(#[from] ExportError),
    /// The report's folder could not be made.
    #[error("cannot create {}: {source}", path.display())]
    Create {
        /// The folder.
        path: PathBuf,
        /// The OS's error.
        #[source]
        source: std::io::Error,
    },
}

/// Removes what a run's folder shows as its results (the frames, `charts/`, `report.md`
/// and `report.html`), leaving its manifest and cells: a run that starts afresh calls it
/// before its first new cell, so a run stopped then leaves no old figure readable as
/// current (issue 38).
pub fn clear(dir: &Path) -> std::io::Result<()> {
    let gone = |r: std::io::Result<()>| match r {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
        _ => Ok(()),
    };
    for stem in frames::STEMS {
        for ext in ["csv", "parquet"] {
            gone(std::fs::remove_file(dir.join(format!("{stem}.{ext}"))))?;
        }
    }
    for page in ["report.md", "report.html", about::FILE] {
        gone(std::fs::remove_file(dir.join(page)))?;
    }
    gone(std::fs::remove_dir_all(dir.join("charts")))
}

/// Writes `dir/report.md`, `dir/report.html` and `dir/charts/*`; returns the files written.
pub fn write(dir: &Path) -> Result<Vec<PathBuf>, ReportError> {
    let frames = frames::Frames::load(dir)?;
    let maps = battles::load(dir);
    let figures = build::figures(&frames);
    let charts = dir.join("charts");
    std::fs::create_dir_all(&charts).map_err(|source| ReportError::Create {
        path: charts.clone(),
        source,
    })?;
    let mut svgs = Vec::new();
    let mut written = Vec::new();
    for f in &figures {
        let svg = f.chart.inline()?;
        written.push(write_text_atomic(
            &charts,
            &format!("{}.svg", f.stem),
            &svg.wide,
        )?);
        written.push(write_bytes_atomic(
            &charts,
            &format!("{}.png", f.stem),
            &f.chart.png()?,
        )?);
        svgs.push(svg);
    }
    written.push(write_text_atomic(
        dir,
        "report.md",
        &page::markdown(&frames, &figures, &battles::markdown(&maps)),
    )?);
    written.push(write_text_atomic(
        dir,
        "report.html",
        &page::html(&frames, &figures, &svgs, &battles::html(&maps)),
    )?);
    let first = figures.first();
    about::write(
        dir,
        &about::About::new(
            &page::title(&frames),
            first.map_or("", |f| f.sentence.as_str()),
            first.map(|f| f.stem.as_str()),
        ),
    )?;
    written.push(dir.join(about::FILE));
    Ok(written)
}
