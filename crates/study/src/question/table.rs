//! A table named or read from a layout file, for `diemon table` and for battles on a
//! table (`--table`): a named layout laid out from its size and seed, or a TOML layout
//! whose errors each name their line and column.

use diemon_core::scenario::table::{Table, TableError, layout, named};

use super::Error;

/// A named table's depth in inches when `--table-depth` is not given: 48, or, with the
/// fronts `apart` (`--distance`), that distance and `room` inches behind each front (as
/// `--room` is behind each side off a table, so a battle keeps its room on a table).
pub const DEPTH: u32 = 48;

/// A named table's depth: `depth` as given, else as [`DEPTH`] says.
pub fn depth(depth: Option<u32>, apart: Option<u32>, room: u32) -> u32 {
    depth.unwrap_or(match apart {
        Some(gap) => gap.saturating_add(room.saturating_mul(2)),
        None => DEPTH,
    })
}

/// The table `name` (a named layout, `width` inches across and `depth` along ([`depth`]),
/// from `seed`; or a layout file), and a line saying where it came from. With `apart`, the
/// sides' fronts stand that many inches apart either side of the middle line (a named
/// layout lays its terrain between them: [`named::layout_apart`]; a file's terrain stays:
/// [`Table::apart`]).
pub fn load(
    name: &str,
    width: u32,
    depth: u32,
    apart: Option<u32>,
    seed: u64,
) -> Result<(Table, String), Error> {
    let too_far = |e: &dyn std::fmt::Display| {
        let least = apart.unwrap_or(0) + 1;
        let hint = format!(
            "a shorter --distance, or a deeper table (--table-depth {least} or more; a layout file's `depth`)"
        );
        Error::input(format!("{e}\nhint: {hint}"))
    };
    if named::NAMES.contains(&name) {
        let (w, d) = (width as f64, depth as f64);
        let t = match apart {
            None => named::layout(name, w, d, seed),
            Some(gap) => named::layout_apart(name, w, d, gap as f64, seed),
        }
        .map_err(|e| {
            let hint = match e {
                named::NamedError::Shallow(_) => "a named table needs room for two 6\" zones and a middle: give a depth of 14 or more",
                named::NamedError::Table(TableError::Apart { .. }) => return too_far(&e),
                _ => "give the width and depth in whole inches, above 0 and at most 1000",
            };
            Error::input(format!("{e}\nhint: {hint}"))
        })?;
        let line = format!(
            "table {name}: {width}\" x {depth}\", seed {seed}, {} pieces of terrain",
            t.terrain().len()
        );
        return Ok((t, line));
    }
    let path = std::path::Path::new(name);
    if !path.exists() {
        let near = diemon_core::input::nearest(name, named::NAMES);
        let hint = match near.first() {
            Some(n) => format!("did you mean the layout `{n}`?"),
            None => format!(
                "name a layout ({}) or a layout file",
                named::NAMES.join(", ")
            ),
        };
        return Err(Error::input(format!(
            "no table layout or file {name:?}\nhint: {hint}"
        )));
    }
    let text = diemon_core::input::read(path)
        .map_err(|e| Error::input(format!("{}: {e}", path.display())))?;
    let t = layout::parse(&path.display().to_string(), &text).map_err(|es| {
        Error::input(
            es.iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
                .join("\n"),
        )
    })?;
    let t = match apart {
        None => t,
        Some(gap) => t.apart(gap as f64).map_err(|e| too_far(&e))?,
    };
    let line = format!(
        "table {}: {}\" x {}\", {} pieces of terrain",
        path.display(),
        t.width(),
        t.depth(),
        t.terrain().len()
    );
    Ok((t, line))
}
