//! A cell file (DIR/cells/NNNNN.json): one cell's typed answer and the stamp of the run
//! that wrote it, sealed with a SHA-256 of its own text so that an edited or damaged file is
//! refused, never reused or merged (issue 38).
//!
//! The seal is the file's first field, `{"checksum":"HEX",` followed by the rest of the
//! JSON: the checksum covers exactly the bytes after it (with the opening brace), so it does
//! not depend on how a JSON library orders keys. The answer reads back as the type its
//! cell's question answers with, every figure to the same bits.

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::question::{Answer, Asked, squad};

/// What opens a sealed file, before the 64 hex digits of its checksum.
const HEAD: &str = "{\"checksum\":\"";

/// Which run wrote a cell: its resume key, its index (0-based) and its shard ("I/N"), if
/// the run was one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stamp {
    /// The run's resume key.
    pub key: String,
    /// The cell's index, from 0.
    pub cell: usize,
    /// The shard, `I/N`, if the run was one.
    pub shard: Option<String>,
}

impl std::fmt::Display for Stamp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "cell {} of resume key {:.12}", self.cell + 1, self.key)?;
        match &self.shard {
            Some(s) => write!(f, ", shard {s}"),
            None => Ok(()),
        }
    }
}

/// Why a cell file was refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum Broken {
    /// No checksum.
    #[error("it carries no checksum")]
    Unsealed,
    /// A checksum that does not match.
    #[error("its checksum does not match its content (edited or damaged)")]
    Mismatch,
    /// Not JSON, or not a cell's (the reader's message).
    #[error("it is not a cell's JSON: {0}")]
    NotJson(String),
}

/// A cell file's content: the stamp, then the answer's own fields.
#[derive(Serialize, Deserialize)]
struct Kept<A> {
    stamp: Stamp,
    #[serde(flatten)]
    answer: A,
}

/// The text of a cell file holding `answer`, written by the run `stamp` names.
pub fn seal(answer: &Answer, stamp: &Stamp) -> Result<String, Broken> {
    let text = serde_json::to_string(&Kept {
        stamp: stamp.clone(),
        answer,
    })
    .map_err(|e| Broken::NotJson(e.to_string()))?;
    let body = text.strip_prefix('{').unwrap_or(&text);
    let sep = if body == "}" { "" } else { "," };
    Ok(format!("{HEAD}{}\"{sep}{body}", hex(&text)))
}

/// The answer to `question` a cell file's bytes hold, and its stamp, if its checksum
/// matches them.
pub fn unseal(bytes: &[u8], question: &Asked) -> Result<(Answer, Stamp), Broken> {
    let inner = opened(bytes)?;
    let answer = match question {
        Asked::Duel(a) if squad::wanted(a) => read(&inner).map(|(a, s)| (Answer::Squad(a), s)),
        Asked::Duel(_) => read(&inner).map(|(a, s)| (Answer::Duel(a), s)),
        Asked::Blast(_) => read(&inner).map(|(a, s)| (Answer::Blast(a), s)),
        Asked::Marks(_) => read(&inner).map(|(a, s)| (Answer::Marks(a), s)),
    };
    answer.map_err(|e| Broken::NotJson(e.to_string()))
}

/// The stamp alone of a cell file whose checksum matches its bytes.
pub fn stamp(bytes: &[u8]) -> Result<Stamp, Broken> {
    #[derive(Deserialize)]
    struct Stamped {
        stamp: Stamp,
    }
    let inner = opened(bytes)?;
    serde_json::from_str::<Stamped>(&inner)
        .map(|s| s.stamp)
        .map_err(|e| Broken::NotJson(e.to_string()))
}

fn read<A: DeserializeOwned>(inner: &str) -> serde_json::Result<(A, Stamp)> {
    serde_json::from_str::<Kept<A>>(inner).map(|k| (k.answer, k.stamp))
}

/// The JSON a sealed file's checksum covers, if it matches.
fn opened(bytes: &[u8]) -> Result<String, Broken> {
    let text = std::str::from_utf8(bytes).map_err(|e| Broken::NotJson(e.to_string()))?;
    let rest = text.strip_prefix(HEAD).ok_or(Broken::Unsealed)?;
    let (sum, body) = match (rest.get(..64), rest.get(64..)) {
        (Some(s), Some(b)) => (s, b),
        _ => return Err(Broken::Unsealed),
    };
    let body = body.strip_prefix('"').ok_or(Broken::Unsealed)?;
    let body = body.strip_prefix(',').unwrap_or(body);
    let inner = format!("{{{body}");
    if hex(&inner) != sum {
        return Err(Broken::Mismatch);
    }
    Ok(inner)
}

fn hex(text: &str) -> String {
    Sha256::digest(text.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::question::CellRun;
    use diemon_core::options::RuleOptions;
    use diemon_core::sim::progress::Silent;
    use std::sync::atomic::AtomicBool;

    /// A question's answer as an experiment cell asks it, quickly.
    fn asked(args: &str) -> (Asked, Answer) {
        let words: Vec<String> = args.split_whitespace().map(String::from).collect();
        let (q, opts) = Asked::parse(&words, &RuleOptions::default(), None).unwrap();
        let run = CellRun {
            seed: 3,
            trials: 700,
            threads: Some(1),
            ..CellRun::default()
        };
        let a = q
            .for_cell(&run)
            .ask(&opts, &Silent, &AtomicBool::new(false))
            .unwrap();
        (q, a)
    }

    fn stamp_of(i: usize) -> Stamp {
        Stamp {
            key: "k".repeat(64),
            cell: i,
            shard: Some("1/2".into()),
        }
    }

    #[test]
    fn every_answer_reads_back_to_the_same_row_to_the_bit() {
        for args in [
            "duel d6/2/1d6/4 d6/2/1d8/5",
            "duel --a minifig-hand-weapon*3 --b minifig-rifle*2 --distance 6",
            "duel --a minifig-launcher*1 --b minifig-hand-weapon*5 --distance 8",
            "blast --weapon launcher --distance 6 --formation cluster:5",
            "marks --attr 2 --skill 1 --tries 3",
        ] {
            let (q, a) = asked(args);
            let text = seal(&a, &stamp_of(4)).unwrap();
            let (back, s) = unseal(text.as_bytes(), &q).unwrap();
            assert_eq!(s, stamp_of(4));
            assert_eq!(back.row(), a.row(), "{args}");
            assert!(!a.row().figures.is_empty(), "{args}");
            // Written again, the same bytes: nothing was lost or rounded.
            assert_eq!(seal(&back, &s).unwrap(), text, "{args}");
            assert_eq!(stamp(text.as_bytes()), Ok(stamp_of(4)));
        }
    }

    #[test]
    fn an_empty_shards_answer_reads_back_with_its_nan_figures() {
        // 700 trials are one batch: shard 2 of 2 draws none, and its figures are NaN.
        for args in [
            "duel --a minifig-hand-weapon*3 --b minifig-rifle*2 --distance 6",
            "blast --weapon launcher --distance 6 --formation cluster:5",
        ] {
            let words: Vec<String> = args.split_whitespace().map(String::from).collect();
            let (q, opts) = Asked::parse(&words, &RuleOptions::default(), None).unwrap();
            let run = CellRun {
                seed: 3,
                trials: 700,
                threads: Some(1),
                shard: Some(crate::question::run::Shard { index: 1, count: 2 }),
                ..CellRun::default()
            };
            let a = q
                .for_cell(&run)
                .ask(&opts, &Silent, &AtomicBool::new(false))
                .unwrap();
            let row = a.row();
            assert_eq!(row.figure("trials"), Some(crate::schema::Figure::Whole(0)));
            assert!(
                row.figures.iter().any(|(_, f)| !f.present()),
                "{args}: no NaN"
            );
            let text = seal(&a, &stamp_of(1)).unwrap();
            assert!(text.contains("null"), "{args}");
            let (back, _) = unseal(text.as_bytes(), &q).unwrap();
            assert_eq!(back.row(), row, "{args}");
            assert_eq!(seal(&back, &stamp_of(1)).unwrap(), text, "{args}");
        }
    }

    #[test]
    fn an_edited_cell_is_refused() {
        let (q, a) = asked("duel d6/2/1d6/4 d6/2/1d6/4");
        let text = seal(&a, &stamp_of(0)).unwrap();
        let edited = text.replacen("\"cell\":0", "\"cell\":1", 1);
        assert_ne!(edited, text);
        assert_eq!(unseal(edited.as_bytes(), &q).err(), Some(Broken::Mismatch));
        // An unsealed answer (an older file, or one written by hand) is refused too.
        assert_eq!(unseal(b"{\"a_wins\":1}", &q).err(), Some(Broken::Unsealed));
        assert_eq!(
            unseal(&text.as_bytes()[..40], &q).err(),
            Some(Broken::Unsealed)
        );
        assert!(matches!(unseal(&[0xff, 0xfe], &q), Err(Broken::NotJson(_))));
        // A sealed cell of another kind of question is not read as this one's.
        let (marks, _) = asked("marks --attr 2 --skill 1");
        assert!(matches!(
            unseal(text.as_bytes(), &marks),
            Err(Broken::NotJson(_))
        ));
    }
}
