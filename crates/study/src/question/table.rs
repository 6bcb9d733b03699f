//! A table named or read from a layout file, for `diemon table` and for battles on a
//! table (`--table`): a named layout laid out from its size and seed, or a TOML layout
//! whose errors each name their line and column.

use diemon_core::scenario::table::{Table, layout, named};

use super::Error;

/// The table `name` (a named layout, `width` by `depth` inches from `seed`, or a layout
/// file), and a line saying where it came from.
pub fn load(name: &str, width: u32, depth: u32, seed: u64) -> Result<(Table, String), Error> {
    if named::NAMES.contains(&name) {
        let t = named::layout(name, width as f64, depth as f64, seed).map_err(|e| {
            let hint = match e {
                named::NamedError::Shallow(_) => "a named table needs room for two 6\" zones and a middle: give a depth of 14 or more",
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
    let line = format!(
        "table {}: {}\" x {}\", {} pieces of terrain",
        path.display(),
        t.width(),
        t.depth(),
        t.terrain().len()
    );
    Ok((t, line))
}
