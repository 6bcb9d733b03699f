//! `diemon options`: every rule option, its values, default and source.

use std::io::Write;

use super::{Failure, io};
use crate::rules::{OPTIONS, RuleOptions};

pub fn run(current: &RuleOptions, out: &mut dyn Write) -> Result<(), Failure> {
    let mut s = String::from(
        "Rule options: what the rule texts leave open. Set one with -o key=value.\n\
         Sources are chapters of the texts; \"readings §N\" is section N of docs/readings.md.\n\n",
    );
    let set: Vec<(&str, String)> = current.pairs();
    for doc in OPTIONS {
        let now = set
            .iter()
            .find(|(k, _)| *k == doc.key)
            .map(|(_, v)| v.as_str())
            .unwrap_or(doc.default);
        s.push_str(&format!(
            "{}  (default {}{})\n    {}\n    values: {}\n    source: {}\n\n",
            doc.key,
            doc.default,
            if now != doc.default {
                format!(", now {now}")
            } else {
                String::new()
            },
            doc.meaning,
            doc.values.join(" | "),
            doc.source
        ));
    }
    io(out.write_all(s.as_bytes()))
}
