//! An experiment file as written: every field, with its position for error messages.
//!
//! The same value is what a price builds in code ([`crate::experiment::build`]): a typed
//! spec, resolved as a file would be, whose file text is its serialisation, never parsed.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use toml::Spanned;

pub use diemon_core::input::line_column;

/// The file, field for field (unknown fields are errors).
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct ExperimentSpec {
    /// Names the output folder, reports/NAME.
    pub name: Spanned<String>,
    /// What it asks, in words.
    #[serde(default)]
    pub description: String,
    /// `duel` or `blast`: the command that answers one cell.
    pub kind: Spanned<String>,
    /// The master seed (default 1).
    #[serde(default = "one")]
    pub seed: u64,
    /// Trials a cell (with `target_ci`, the most a cell may run).
    pub trials: Spanned<u64>,
    /// Stop each cell once the 95% CI half-width of its key figure is at most this.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub target_ci: Option<Spanned<f64>>,
    /// Which formats to write: "csv", "parquet" (default both).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outputs: Option<Spanned<Vec<String>>>,
    /// Rule options, `key = value` as `diemon options` lists them.
    #[serde(default)]
    pub options: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// The command's flags, without dashes: `distance = 12`, `a = "minifig*6"`.
    #[serde(default)]
    pub scenario: BTreeMap<Spanned<String>, Spanned<toml::Value>>,
    /// Sweep axes: a flag and its values. Kept in file order.
    #[serde(default)]
    pub sweep: Sweep,
    /// `kind = "fair-cp"`: the unit, the reference, and the squad sizes to fit over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fair_cp: Option<FairCpSpec>,
    /// `kind = "matchups"`: the units to play against each other at equal CP.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub matchups: Option<MatchupsSpec>,
}

/// What a unit is worth in units of a reference: `units` of `unit` against each of
/// `counts` of `reference`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct FairCpSpec {
    /// The unit priced.
    pub unit: Spanned<String>,
    /// The unit it is priced in.
    pub reference: Spanned<String>,
    /// How many of `unit` fight (default 1).
    #[serde(default = "one_spanned")]
    pub units: Spanned<u64>,
    /// How many of `reference` they face, one cell each; the 50% point must lie within.
    pub counts: Spanned<Vec<u64>>,
}

/// Every unit against every other at the budget of `[scenario]` or `[sweep]`.
#[derive(Debug, Clone, Deserialize, Serialize)]
#[serde(deny_unknown_fields)]
pub struct MatchupsSpec {
    /// The units.
    pub units: Spanned<Vec<String>>,
    /// Equal head counts: each side fields this many of its unit (instead of a budget).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<Spanned<u64>>,
}

fn one_spanned() -> Spanned<u64> {
    Spanned::new(0..0, 1)
}

/// A value built in code, where no file position exists (errors point at the start).
pub fn unplaced<T>(value: T) -> Spanned<T> {
    Spanned::new(0..0, value)
}

/// Sweep axes in the order the file gives them.
#[derive(Debug, Clone, Default)]
pub struct Sweep(pub Vec<(Spanned<String>, Spanned<Vec<toml::Value>>)>);

impl Sweep {
    /// The swept keys, in file order.
    pub fn keys(&self) -> impl Iterator<Item = &Spanned<String>> {
        self.0.iter().map(|(k, _)| k)
    }
}

impl Serialize for Sweep {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            m.serialize_entry(k, v)?;
        }
        m.end()
    }
}

impl<'de> Deserialize<'de> for Sweep {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Sweep, D::Error> {
        struct V;
        impl<'de> serde::de::Visitor<'de> for V {
            type Value = Sweep;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("a table of flag = [values]")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut m: A) -> Result<Sweep, A::Error> {
                let mut out = Vec::new();
                while let Some((k, v)) = m.next_entry()? {
                    out.push((k, v));
                }
                Ok(Sweep(out))
            }
        }
        d.deserialize_map(V)
    }
}

fn one() -> u64 {
    1
}

/// A TOML value as a command-line argument: strings unquoted, numbers as written.
pub fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        toml::Value::Float(f) if f.fract() == 0.0 && f.abs() < 1e15 => format!("{f:.1}"),
        other => other.to_string(),
    }
}
