//! Squads as the command line writes them: `minifig-hand-weapon*6, hero-hand-weapon*2`, or
//! one unit filling a CP budget ("CP-matched").

use crate::catalog::cp::Cp;

/// Most units on one side: the trial keeps every unit's state on the stack.
pub const MAX_PER_SIDE: u32 = 64;

/// A roster line that cannot be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RosterError {
    /// The line as written.
    pub text: String,
    /// What is wrong with it.
    pub message: String,
}

/// Parses `NAME[*COUNT]` entries joined by commas; a NAME may carry `+ITEM`s, which
/// [`crate::catalog::Catalog::equipped`] resolves, and an `@POLICY` for its SN dice, which
/// [`super::SideSpec::from_catalog`] reads.
pub fn parse(text: &str) -> Result<Vec<(String, u32)>, RosterError> {
    let bad = |message: String| RosterError {
        text: text.into(),
        message,
    };
    let mut out = Vec::new();
    for part in text.split(',').map(str::trim) {
        if part.is_empty() {
            return Err(bad(
                "an empty entry; write NAME or NAME*COUNT, joined by commas".into(),
            ));
        }
        let (name, count) = match part.split_once('*') {
            None => (part, 1),
            Some((n, c)) => {
                let c: u32 = c.trim().parse().map_err(|_| {
                    bad(format!(
                        "{c:?} in {part:?} is not a count; write NAME*COUNT, e.g. minifig*6"
                    ))
                })?;
                (n.trim(), c)
            }
        };
        if count == 0 {
            return Err(bad(format!("{part:?}: a count of 0")));
        }
        out.push((name.to_string(), count));
    }
    let total: u64 = out.iter().map(|(_, c)| *c as u64).sum();
    if total > MAX_PER_SIDE as u64 {
        return Err(bad(format!(
            "{total} units on one side; at most {MAX_PER_SIDE}"
        )));
    }
    Ok(out)
}

/// A CP budget no whole number of units fills: bad input.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum FillError {
    /// A unit that costs nothing (or less).
    #[error("a unit costing {0} CP cannot fill a budget")]
    Free(Cp),
    /// One unit costs more than the budget.
    #[error("one costs {each} CP, more than the budget of {budget} CP")]
    Dear {
        /// One unit's CP.
        each: Cp,
        /// The budget.
        budget: Cp,
    },
    /// More than a side holds ([`MAX_PER_SIDE`]).
    #[error("{n} would fit in {budget} CP; at most {MAX_PER_SIDE} a side")]
    TooMany {
        /// Units the budget buys.
        n: i64,
        /// The budget.
        budget: Cp,
    },
}

/// How many of a unit costing `each` fit in `budget` ("CP-matched"): at least one.
pub fn fill(each: Cp, budget: Cp) -> Result<u32, FillError> {
    if each <= Cp::ZERO {
        return Err(FillError::Free(each));
    }
    let n = budget.in_quarters() / each.in_quarters();
    if n < 1 {
        return Err(FillError::Dear { each, budget });
    }
    if n > MAX_PER_SIDE as i64 {
        return Err(FillError::TooMany { n, budget });
    }
    Ok(n as u32)
}

/// Why a side's roster line (and budget) fields no units.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum FieldError {
    /// The line does not read ([`parse`]).
    #[error("{0}")]
    Roster(String),
    /// Not a CP amount in quarter points.
    #[error("budget {0}: expected a CP amount above 0, in quarter points (44, 22.5)")]
    Budget(f64),
    /// A budget with more than one unit to fill it.
    #[error("a budget fills a side with one unit; {0:?} lists more")]
    NotOne(String),
    /// A unit or item the catalog does not have.
    #[error("{0}")]
    Unknown(String),
    /// The budget buys no whole number of the unit.
    #[error("{key}: {error}")]
    Fill {
        /// The unit.
        key: String,
        /// Why.
        error: FillError,
    },
}

/// The units a roster line fields: as written, or its one unit as many times as `budget`
/// CP buys ("CP-matched", costs from [`crate::catalog::cost::breakdown`]).
pub fn fielded(
    catalog: &crate::catalog::Catalog,
    text: &str,
    budget: Option<f64>,
) -> Result<Vec<(String, u32)>, FieldError> {
    let units = parse(text).map_err(|e| FieldError::Roster(e.message))?;
    let Some(budget) = budget else {
        return Ok(units);
    };
    if !(budget > 0.0 && (budget * 4.0).fract() == 0.0 && budget <= 1e6) {
        return Err(FieldError::Budget(budget));
    }
    let [(key, 1)] = &units[..] else {
        return Err(FieldError::NotOne(text.to_string()));
    };
    let u = catalog
        .equipped(key)
        .map_err(|e| FieldError::Unknown(e.to_string()))?;
    let each = crate::catalog::cost::breakdown(&u).total();
    let n = fill(each, Cp::quarters((budget * 4.0) as i64)).map_err(|error| FieldError::Fill {
        key: key.clone(),
        error,
    })?;
    Ok(vec![(key.clone(), n)])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_counts() {
        assert_eq!(
            parse("minifig-hand-weapon*6, hero-hand-weapon*2").unwrap(),
            vec![
                ("minifig-hand-weapon".into(), 6),
                ("hero-hand-weapon".into(), 2)
            ]
        );
        assert_eq!(parse("horse").unwrap(), vec![("horse".into(), 1)]);
        assert!(
            parse("horse*x")
                .unwrap_err()
                .message
                .contains("not a count")
        );
        assert!(parse("horse*0").is_err());
        assert!(parse("a,,b").is_err());
        assert!(
            parse("minifig*65")
                .unwrap_err()
                .message
                .contains("at most 64")
        );
    }

    #[test]
    fn budgets_fill_with_whole_units() {
        // 44 CP of 6 CP minifigs is 7 (42 CP); of 13 CP Heroes, 3.
        assert_eq!(fill(Cp::whole(6), Cp::whole(44)), Ok(7));
        assert_eq!(fill(Cp::whole(13), Cp::whole(44)), Ok(3));
        assert!(fill(Cp::whole(50), Cp::whole(44)).is_err());
        assert!(fill(Cp::ZERO, Cp::whole(44)).is_err());
        assert!(matches!(
            fill(Cp::whole(2), Cp::whole(200)),
            Err(FillError::TooMany { n: 100, .. })
        ));
    }
}
