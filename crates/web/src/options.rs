//! The rule options as the page's controls: every option `diemon options` lists, its values
//! and default, and the page's choices applied by name (`-o key=value` on the command line).

use serde::Serialize;

use crate::error::Error;
use diemon_core::options::{OPTIONS, RuleOptions};

/// One option as a control.
#[derive(Clone, Debug, Serialize)]
pub struct Control {
    /// Its key (`d4_bonus`).
    pub key: &'static str,
    /// The values it takes, as written (a free value such as a number shows its shape).
    pub values: &'static [&'static str],
    /// Its default.
    pub default: &'static str,
    /// Where the texts leave it open.
    pub source: &'static str,
    /// What it decides.
    pub meaning: &'static str,
}

/// Every option, in the order `diemon options` lists them.
pub fn controls() -> Vec<Control> {
    OPTIONS
        .iter()
        .map(|o| Control {
            key: o.key,
            values: o.values,
            default: o.default,
            source: o.source,
            meaning: o.meaning,
        })
        .collect()
}

/// The options with the page's `(key, value)` choices set, in order.
pub fn apply(choices: &[(String, String)]) -> Result<RuleOptions, Error> {
    let mut o = RuleOptions::default();
    for (k, v) in choices {
        o.set(k, v)?;
    }
    Ok(o)
}

/// The choices that differ from the defaults, as `-o key=value` flags.
pub fn flags(opts: &RuleOptions) -> Vec<String> {
    opts.pairs()
        .into_iter()
        .zip(RuleOptions::default().pairs())
        .filter(|(a, b)| a.1 != b.1)
        .map(|(a, _)| format!("-o {}={}", a.0, a.1))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn choices_set_options_and_bad_ones_are_named() {
        let o = apply(&[("d4_bonus".into(), "all".into())]).unwrap();
        assert_eq!(flags(&o), ["-o d4_bonus=all"]);
        let e = apply(&[("d4_bonus".into(), "most".into())]).unwrap_err();
        assert_eq!(e.field, "options");
        assert!(e.message.contains("d4_bonus"), "{}", e.message);
        assert_eq!(controls().len(), OPTIONS.len());
    }
}
