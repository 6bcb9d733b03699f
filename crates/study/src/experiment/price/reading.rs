//! What a sensitivity keeps of a reading it re-priced (issue 39, item 5): each scenario as
//! the card counts it, under a key of everything that priced it (`reading.json`), beside the
//! reading's prices frame. Once that is written, the reading's experiments (their cells and
//! frames) are removed, unless the run asked to keep them whole: a unit's sensitivity folder
//! stays a few MB, not a hundred. A rerun under the same key reads the record and re-prices
//! nothing; a reading stopped half way keeps its cells, and a rerun resumes from them. A
//! reading that touched no probe battle keeps a record too, so a rerun (or the merge of a
//! sharded sensitivity) probes nothing again.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::{Plan, folder_of};
use crate::analysis::card::Scenario;
use crate::experiment::error::RunError;

/// The record's file in a reading's folder.
pub const FILE: &str = "reading.json";

/// A re-priced reading, as a sensitivity reads it back.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    /// [`Plan::key`] of the plan that priced it.
    pub key: String,
    /// Each scenario, in the price's order, as the card counts it (`None`: not counted);
    /// `None` for a reading whose probe battles all ended as under the defaults, which was
    /// not re-priced.
    pub scenarios: Option<Vec<Option<Scenario>>>,
}

/// The record in `folder` if there is one written under `key`. A record that is missing,
/// unreadable or of another key is none: the reading is priced again.
pub fn read(folder: &Path, key: &str) -> Option<Record> {
    let text = std::fs::read_to_string(folder.join(FILE)).ok()?;
    let r: Record = serde_json::from_str(&text).ok()?;
    (r.key == key).then_some(r)
}

/// Writes `r` into `folder` (temporary file, then renamed: never half a record).
pub fn write(folder: &Path, r: &Record) -> Result<(), RunError> {
    crate::export::write_json_atomic(folder, FILE, r)
        .map_err(|e| RunError::other(e.to_string()))?;
    Ok(())
}

/// Removes the experiments of `plan` priced into `folder` (each reference's formation
/// folders, then a reference's folder once empty), leaving the record and frames.
pub fn prune(folder: &Path, plan: &Plan) -> Result<(), RunError> {
    for f in &plan.fits {
        let dir = folder_of(folder, f);
        if dir.exists() {
            std::fs::remove_dir_all(&dir)
                .map_err(|e| RunError::other(format!("cannot remove {}: {e}", dir.display())))?;
        }
        // Another formation may still be there: only an empty folder goes.
        if let Some(parent) = dir.parent() {
            let _ = std::fs::remove_dir(parent);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_record_is_read_back_only_under_its_own_key() {
        let dir = std::env::temp_dir().join(format!("diemon-reading-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let r = Record {
            key: "abc".into(),
            scenarios: Some(vec![
                Some(Scenario::Priced([12.781234567891234, 12.7, 12.9])),
                Some(Scenario::Above(60.0)),
                Some(Scenario::Below(1.5)),
                None,
            ]),
        };
        write(&dir, &r).unwrap();
        // Every digit comes back: a rerun prints what the first run printed.
        assert_eq!(read(&dir, "abc"), Some(r));
        assert_eq!(read(&dir, "abd"), None, "another key");
        let untouched = Record {
            key: "abc".into(),
            scenarios: None,
        };
        write(&dir, &untouched).unwrap();
        assert_eq!(read(&dir, "abc"), Some(untouched));
        std::fs::write(dir.join(FILE), "{ not json").unwrap();
        assert_eq!(read(&dir, "abc"), None, "a damaged record is none");
        assert_eq!(read(&dir.join("absent"), "abc"), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
