//! A table from a TOML layout, with errors that name the file, line and column.
//!
//! The schema (docs/model.md, "Tables"):
//!
//! ```toml
//! width = 48            # inches across
//! depth = 36            # inches from side A's edge to side B's
//! zone = 6              # each side deploys within this many inches of its edge (default 6)
//!
//! [[terrain]]
//! kind = "building"     # wall, low-wall, building or woods
//! height = 4            # inches; the kind's own when left out
//! corners = [[10, 10], [14, 10], [14, 14], [10, 14]]   # (across, along), in order
//! ```

use serde::Deserialize;
use toml::Spanned;

use super::{Outline, Point, Table, Terrain, TerrainKind};
use crate::input::{InputError, at, unknown_field_hint};

/// A layout file as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Spec {
    width: Spanned<f64>,
    depth: Spanned<f64>,
    #[serde(default)]
    zone: Option<Spanned<f64>>,
    #[serde(default)]
    terrain: Vec<Spanned<TerrainSpec>>,
}

/// A piece of terrain as written.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct TerrainSpec {
    kind: Spanned<String>,
    #[serde(default)]
    height: Option<Spanned<f64>>,
    corners: Spanned<Vec<[f64; 2]>>,
}

/// How deep each side's zone is when a layout does not say, in inches.
pub const ZONE: f64 = 6.0;

/// The table layout `text` (named `file` in errors). Every error found is returned, each at
/// its place in the file.
pub fn parse(file: &str, text: &str) -> Result<Table, Vec<InputError>> {
    let at = at(file, text);
    let spec: Spec = toml::from_str(text).map_err(|e| {
        let message = e.message().trim().to_string();
        let hint = unknown_field_hint(&message).unwrap_or_else(|| {
            "a layout gives `width` and `depth` in inches, and a [[terrain]] table a piece (`kind`, `corners`, and `height` if not the kind's own): see docs/model.md, Tables".into()
        });
        vec![at(e.span().map_or(0, |s| s.start), message, &hint)]
    })?;
    let mut errors = Vec::new();
    let (width, depth) = (*spec.width.get_ref(), *spec.depth.get_ref());
    for (what, side) in [("width", &spec.width), ("depth", &spec.depth)] {
        let inches = *side.get_ref();
        if !(inches > 0.0 && inches <= super::MAX_SIDE) {
            errors.push(at(
                side.span().start,
                format!("the table's {what} is {inches}\""),
                &format!("give a {what} above 0\" and at most {}\"", super::MAX_SIDE),
            ));
        }
    }
    let zone = spec.zone.as_ref().map_or(ZONE, |z| *z.get_ref());
    if let Some(z) = &spec.zone
        && !(zone > 0.0 && zone <= depth / 2.0)
    {
        errors.push(at(
            z.span().start,
            format!("a zone {zone}\" deep does not fit two on a table {depth}\" deep"),
            "give each side's zone, in inches from its edge, above 0\" and at most half the depth",
        ));
    }
    let mut terrain = Vec::new();
    for piece in &spec.terrain {
        match self::piece(piece.get_ref(), width, depth) {
            Ok(t) => terrain.push(t),
            Err((offset, message, hint)) => errors.push(at(offset, message, &hint)),
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let zones = Table::edge_zones(width, depth, zone)
        .map_err(|e| vec![at(0, format!("the zones: {e}"), "give a zone above 0\"")])?;
    Table::new(width, depth, terrain, zones)
        .map_err(|e| vec![at(0, e.to_string(), "check the table's size and terrain")])
}

/// One piece of terrain checked: its kind known, its corners an outline on the table, its
/// height above 0. An error is its byte offset, message and hint.
fn piece(p: &TerrainSpec, width: f64, depth: f64) -> Result<Terrain, (usize, String, String)> {
    let name = p.kind.get_ref();
    let Some(kind) = TerrainKind::ALL.into_iter().find(|k| k.name() == name) else {
        let names = TerrainKind::ALL.map(TerrainKind::name);
        let near = crate::input::nearest(name, names);
        let hint = match near.first() {
            Some(n) => format!("did you mean `{n}`? The kinds are {}", names.join(", ")),
            None => format!("the kinds are {}", names.join(", ")),
        };
        return Err((
            p.kind.span().start,
            format!("no terrain kind {name:?}"),
            hint,
        ));
    };
    let height = p.height.as_ref().map_or(kind.height(), |h| *h.get_ref());
    if let Some(h) = &p.height
        && !(height > 0.0 && height.is_finite())
    {
        return Err((
            h.span().start,
            format!("a {} {height}\" high", kind.name()),
            "give a height above 0\", or leave it out for the kind's own".into(),
        ));
    }
    let corners: Vec<Point> = p
        .corners
        .get_ref()
        .iter()
        .map(|&[x, y]| Point::new(x, y))
        .collect();
    let start = p.corners.span().start;
    if let Some(c) = corners
        .iter()
        .find(|c| !(0.0..=width).contains(&c.x) || !(0.0..=depth).contains(&c.y))
    {
        return Err((
            start,
            format!(
                "corner ({}, {}) lies off the {width}\" x {depth}\" table",
                c.x, c.y
            ),
            "corners are (across, along) in inches, from the table's left and near edges".into(),
        ));
    }
    let outline = Outline::new(corners).map_err(|e| {
        (
            start,
            format!("these corners make no outline: {e}"),
            "list a piece's corners in order round it, each once".into(),
        )
    })?;
    Ok(Terrain {
        kind,
        outline,
        height,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOWN: &str = r#"width = 24
depth = 24

[[terrain]]
kind = "building"
corners = [[10, 10], [14, 10], [14, 14], [10, 14]]

[[terrain]]
kind = "low-wall"
height = 0.75
corners = [[2, 6], [8, 6], [8, 6.5], [2, 6.5]]
"#;

    #[test]
    fn a_layout_reads_into_a_table() {
        let t = parse("town.toml", TOWN).unwrap();
        assert_eq!((t.width(), t.depth(), t.terrain().len()), (24.0, 24.0, 2));
        assert_eq!(t.terrain()[0].height, 4.0, "a building's own height");
        assert_eq!(t.terrain()[1].height, 0.75);
        assert!(
            t.zone(1).contains(Point::new(12.0, 20.0))
                && !t.zone(0).contains(Point::new(12.0, 7.0))
        );
    }

    #[test]
    fn each_error_names_its_line_and_column_and_a_hint() {
        let bad = TOWN.replace("\"building\"", "\"buildng\"");
        let e = parse("town.toml", &bad).unwrap_err();
        assert_eq!((e[0].line, e[0].column), (5, 8));
        assert!(
            e[0].message.contains("buildng") && e[0].hint.contains("`building`"),
            "{}",
            e[0]
        );
        // A bow tie and a corner off the table: both found, each at its corners.
        let bad = TOWN
            .replace(
                "[[10, 10], [14, 10], [14, 14], [10, 14]]",
                "[[10, 10], [14, 14], [14, 10], [10, 14]]",
            )
            .replace("[8, 6.5]", "[30, 6.5]");
        let e = parse("town.toml", &bad).unwrap_err();
        assert_eq!(e.len(), 2);
        assert_eq!((e[0].line, e[0].column), (6, 11));
        assert!(e[0].message.contains("edges 1 and 3 cross"), "{}", e[0]);
        assert_eq!((e[1].line, e[1].column), (11, 11));
        assert!(e[1].message.contains("(30, 6.5) lies off"), "{}", e[1]);
        // An unknown field: "did you mean".
        let e = parse("t.toml", "width = 24\ndepth = 24\nzones = 4\n").unwrap_err();
        assert_eq!(e[0].line, 3);
        assert!(e[0].hint.contains("`zone`"), "{}", e[0]);
        // A zone too deep.
        let e = parse("t.toml", "width = 24\ndepth = 10\nzone = 6\n").unwrap_err();
        assert_eq!((e[0].line, e[0].column), (3, 8));
    }
}
