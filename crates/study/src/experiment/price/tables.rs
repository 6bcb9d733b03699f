//! The tables a price stands on (issue 43): the plane (no table, as every battle before
//! tables) or named layouts, each a scenario family of its own. On a table each distance
//! is the gap between the sides' fronts, with [`diemon_core::scenario::squad::ROOM`] behind
//! each (as on the plane), and the table as wide as the widest line needs
//! (`fit::width`).

/// The table a price stands on by default: `plane`, no table (the sides on one line, as
/// every battle before issue 43).
pub const PLANE: &str = "plane";

/// A price's tables: [`PLANE`], or named layouts (docs/pricing.md, "How terrain moves
/// prices"), each a scenario family of its own.
pub fn plane() -> Vec<String> {
    vec![PLANE.to_string()]
}

/// Whether `name` is a table a price stands on: [`PLANE`] or a named layout (a layout
/// file is for `duel --table`: a price's table is laid out afresh for each distance).
pub fn table_name(name: &str) -> Result<(), String> {
    use diemon_core::scenario::table::named::NAMES;
    match name == PLANE || NAMES.contains(&name) {
        true => Ok(()),
        false => Err(format!(
            "no table {name:?} to price on (the tables are {PLANE}, {})",
            NAMES.join(", ")
        )),
    }
}

/// A priced table's width at least, in inches (as `duel --table`'s); a side's line wider
/// than it widens the table (`fit::width`).
pub const TABLE_WIDTH: u32 = 48;

/// `table` as a fit stands on it, `width` inches across: none for [`PLANE`].
pub fn on(table: &str, width: u32) -> Option<(&str, u32)> {
    (table != PLANE).then_some((table, width))
}

/// " on the scattered table", or nothing on the plane.
pub fn on_words(table: &str) -> String {
    match table == PLANE {
        true => String::new(),
        false => format!(" on the {table} table"),
    }
}
