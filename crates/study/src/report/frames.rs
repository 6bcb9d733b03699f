//! The frames a report is made from, read back from a run's folder: the Parquet files (CSV
//! when an experiment wrote only CSV) and the manifest they carry in their metadata.

use std::fs::File;
use std::path::{Path, PathBuf};

use polars::prelude::*;

/// The stems of the frames a run may write (each as `.csv` and `.parquet`), as [`Frames`]
/// reads them.
pub const STEMS: [&str; 6] = [
    "summary",
    "distributions",
    "by_ring",
    "by_turn",
    "fair_cp",
    "matchups",
];

/// A run's frames and manifest.
pub struct Frames {
    /// The manifest of the run that wrote them.
    pub manifest: toml::Table,
    /// One row a cell.
    pub summary: DataFrame,
    /// Histograms: one row a cell and value.
    pub distributions: Option<DataFrame>,
    /// Explosive fire: kills by ring.
    pub by_ring: Option<DataFrame>,
    /// Squad duels: units standing (and Minds converted) after each player turn.
    pub by_turn: Option<DataFrame>,
    /// A fair-CP experiment's fits.
    pub fair_cp: Option<DataFrame>,
    /// A matchups experiment's table.
    pub matchups: Option<DataFrame>,
}

/// A folder whose frames cannot be read back: not a run's folder (no summary frame, no
/// manifest, a manifest that is not TOML), or a frame file that does not open or parse.
/// `reason` is the message of the failure underneath (the file system's, the reader's).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FolderError {
    /// No summary frame: not a run's folder.
    #[error(
        "{}: no summary.parquet or summary.csv\nhint: give the folder `diemon run` wrote (reports/NAME)",
        dir.display()
    )]
    NoSummary {
        /// The folder.
        dir: PathBuf,
    },
    /// A frame whose manifest is not the folder's: a fresh run stopped before it finished.
    #[error(
        "{}: its frames come from another run than {} names (a run started afresh there and stopped before it finished)\nhint: run the experiment again into this folder (diemon run FILE --out {}); it resumes the new run and rewrites the frames",
        file.display(),
        dir.join("manifest.toml").display(),
        dir.display()
    )]
    OtherRun {
        /// The frame from another run.
        file: PathBuf,
        /// The folder.
        dir: PathBuf,
    },
    /// No manifest in the summary frame, and none beside it.
    #[error("{}: no manifest in summary.parquet and no manifest.toml ({reason})", dir.display())]
    NoManifest {
        /// The folder.
        dir: PathBuf,
        /// Why manifest.toml did not read.
        reason: String,
    },
    /// A manifest that does not parse.
    #[error("{}: the manifest is not TOML: {reason}", dir.display())]
    NotToml {
        /// The folder.
        dir: PathBuf,
        /// The TOML reader's message.
        reason: String,
    },
    /// A frame file that does not open.
    #[error("cannot open {}: {reason}", file.display())]
    Open {
        /// The file.
        file: PathBuf,
        /// The file system's message.
        reason: String,
    },
    /// A frame file that opens but does not read as a frame.
    #[error("cannot read {}: {reason}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// The reader's message.
        reason: String,
    },
}

impl Frames {
    /// Reads `dir`'s frames. The manifest comes from `summary.parquet`'s metadata (else
    /// `manifest.toml`), so a folder of Parquet files alone is enough.
    pub fn load(dir: &Path) -> Result<Frames, FolderError> {
        let summary = read(dir, "summary")?.ok_or_else(|| FolderError::NoSummary {
            dir: dir.to_path_buf(),
        })?;
        let on_disk = std::fs::read_to_string(dir.join("manifest.toml"));
        let manifest_text = match parquet_manifest(&dir.join("summary.parquet"))? {
            Some(m) => {
                // Every frame must come from the run the folder's manifest names.
                for stem in STEMS {
                    let file = dir.join(format!("{stem}.parquet"));
                    let theirs = parquet_manifest(&file)?;
                    let other = match (&theirs, &on_disk) {
                        (Some(t), _) if *t != m => true,
                        (Some(t), Ok(d)) => t != d,
                        _ => false,
                    };
                    if other {
                        return Err(FolderError::OtherRun {
                            file,
                            dir: dir.to_path_buf(),
                        });
                    }
                }
                m
            }
            None => on_disk.map_err(|e| FolderError::NoManifest {
                dir: dir.to_path_buf(),
                reason: e.to_string(),
            })?,
        };
        let manifest = manifest_text
            .parse::<toml::Table>()
            .map_err(|e| FolderError::NotToml {
                dir: dir.to_path_buf(),
                reason: e.to_string(),
            })?;
        let [_, distributions, by_ring, by_turn, fair_cp, matchups] = STEMS;
        Ok(Frames {
            manifest,
            summary,
            distributions: read(dir, distributions)?,
            by_ring: read(dir, by_ring)?,
            by_turn: read(dir, by_turn)?,
            fair_cp: read(dir, fair_cp)?,
            matchups: read(dir, matchups)?,
        })
    }

    /// A manifest string field ("" when missing).
    pub fn text(&self, key: &str) -> &str {
        self.manifest
            .get(key)
            .and_then(|v| v.as_str())
            .unwrap_or("")
    }

    /// The parameter names of the cells, in order.
    pub fn axes(&self) -> Vec<String> {
        self.manifest
            .get("axes")
            .and_then(|v| v.as_array())
            .map(|a| {
                a.iter()
                    .filter_map(|v| v.as_str().map(crate::analysis::frame::column_name))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A frame file that does not open.
fn open(file: &Path, e: std::io::Error) -> FolderError {
    FolderError::Open {
        file: file.to_path_buf(),
        reason: e.to_string(),
    }
}

/// `dir/stem.parquet`, else `dir/stem.csv`, else None.
fn read(dir: &Path, stem: &str) -> Result<Option<DataFrame>, FolderError> {
    let parquet = dir.join(format!("{stem}.parquet"));
    let csv = dir.join(format!("{stem}.csv"));
    let bad = |p: &Path, e: PolarsError| FolderError::Read {
        file: p.to_path_buf(),
        reason: e.to_string(),
    };
    if parquet.exists() {
        let f = File::open(&parquet).map_err(|e| open(&parquet, e))?;
        return ParquetReader::new(f)
            .finish()
            .map(Some)
            .map_err(|e| bad(&parquet, e));
    }
    if csv.exists() {
        return CsvReadOptions::default()
            .with_has_header(true)
            .try_into_reader_with_file_path(Some(csv.clone()))
            .and_then(|r| r.finish())
            .map(Some)
            .map_err(|e| bad(&csv, e));
    }
    Ok(None)
}

/// The `diemon_manifest` key-value metadata of a Parquet file, if the file exists.
pub fn parquet_manifest(file: &Path) -> Result<Option<String>, FolderError> {
    if !file.exists() {
        return Ok(None);
    }
    let f = File::open(file).map_err(|e| open(file, e))?;
    let mut r = ParquetReader::new(f);
    let meta = r.get_metadata().map_err(|e| FolderError::Read {
        file: file.to_path_buf(),
        reason: e.to_string(),
    })?;
    Ok(meta.key_value_metadata().as_ref().and_then(|kv| {
        kv.iter()
            .find(|k| k.key == "diemon_manifest")
            .and_then(|k| k.value.clone())
    }))
}

/// A column as numbers (None where missing or not a number).
pub fn numbers(df: &DataFrame, name: &str) -> Option<Vec<Option<f64>>> {
    let c = df.column(name).ok()?.cast(&DataType::Float64).ok()?;
    Some(c.f64().ok()?.iter().collect())
}

/// A column as text.
pub fn texts(df: &DataFrame, name: &str) -> Option<Vec<String>> {
    let c = df.column(name).ok()?.cast(&DataType::String).ok()?;
    Some(
        c.str()
            .ok()?
            .iter()
            .map(|v| v.unwrap_or("").to_string())
            .collect(),
    )
}

/// Whether a column holds numbers.
pub fn is_numeric(df: &DataFrame, name: &str) -> bool {
    df.column(name)
        .is_ok_and(|c| c.dtype().is_primitive_numeric())
}
