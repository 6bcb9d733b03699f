//! Trial counts as people write them: `1000000`, `1_000_000`, `1e6`, `1M`, `10k`, `2G`
//! (the command line's flags and the browser page's fields read them alike).

/// A count flag's value that is not a count it accepts, as written.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CountError {
    /// Not a number at all.
    #[error("expected a whole number like 1000000, 1e6 or 1M, got {0:?}")]
    NotANumber(String),
    /// A number, but negative, fractional or past 1e15.
    #[error("expected a whole number from 0 to 1e15, got {0:?}")]
    OutOfRange(String),
    /// Not a count of trials: zero, or not a count at all.
    #[error("expected a whole number from 1 to 1e15 (like 1000000, 1e6 or 1M), got {0:?}")]
    NoTrials(String),
}

/// Parses a trial count: `1000000`, `1_000_000`, `1e6`, `1M`, `10k`, `2G`.
pub fn parse_count(s: &str) -> Result<u64, CountError> {
    let t = s.trim().replace('_', "");
    let (num, mult) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 1e3),
        Some('M') => (&t[..t.len() - 1], 1e6),
        Some('G' | 'B') => (&t[..t.len() - 1], 1e9),
        _ => (&t[..], 1.0),
    };
    let v: f64 = num
        .parse()
        .map_err(|_| CountError::NotANumber(s.to_string()))?;
    let v = v * mult;
    if !((0.0..=1e15).contains(&v) && v.fract() == 0.0) {
        return Err(CountError::OutOfRange(s.to_string()));
    }
    Ok(v as u64)
}

/// Parses a count of trials or rolls, as [`parse_count`], from 1 (a run of no trials answers
/// nothing).
pub fn parse_trials(s: &str) -> Result<u64, CountError> {
    match parse_count(s) {
        Ok(0) | Err(_) => Err(CountError::NoTrials(s.to_string())),
        Ok(n) => Ok(n),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_in_every_spelling() {
        assert_eq!(parse_count("1000000"), Ok(1_000_000));
        assert_eq!(parse_count("1_000_000"), Ok(1_000_000));
        assert_eq!(parse_count("1e7"), Ok(10_000_000));
        assert_eq!(parse_count("10M"), Ok(10_000_000));
        assert_eq!(parse_count("2.5k"), Ok(2_500));
        assert!(parse_count("1.5").is_err());
        assert!(parse_count("-3").is_err());
        assert!(parse_count("lots").is_err());
    }
}
