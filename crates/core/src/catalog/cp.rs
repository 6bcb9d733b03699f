//! Construction Points, exactly.
//!
//! Costs come in halves (a minifig body is 0.5CP, 5" of Move 2.5CP) and quarters (flying Move
//! at Structure Level ½ is 2.5CP per 2"), so a [`Cp`] counts quarter points in an integer:
//! sums are exact and print as the texts write them ("4", "2.5", "6.25").

use std::fmt;
use std::iter::Sum;
use std::ops::{Add, Mul, Sub};

use serde::Serialize;

/// A cost in Construction Points, held as quarter points.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Cp(i64);

impl Cp {
    /// No CP.
    pub const ZERO: Cp = Cp(0);

    /// Whole points.
    pub const fn whole(n: i64) -> Cp {
        Cp(n * 4)
    }

    /// Half points: `Cp::halves(5)` is 2.5CP.
    pub const fn halves(n: i64) -> Cp {
        Cp(n * 2)
    }

    /// Quarter points.
    pub const fn quarters(n: i64) -> Cp {
        Cp(n)
    }

    /// The count of quarter points.
    pub const fn in_quarters(self) -> i64 {
        self.0
    }

    /// As a float, for JSON and frames.
    pub fn as_f64(self) -> f64 {
        self.0 as f64 / 4.0
    }
}

impl Add for Cp {
    type Output = Cp;
    fn add(self, o: Cp) -> Cp {
        Cp(self.0 + o.0)
    }
}

impl Sub for Cp {
    type Output = Cp;
    fn sub(self, o: Cp) -> Cp {
        Cp(self.0 - o.0)
    }
}

impl Mul<i64> for Cp {
    type Output = Cp;
    fn mul(self, n: i64) -> Cp {
        Cp(self.0 * n)
    }
}

impl Sum for Cp {
    fn sum<I: Iterator<Item = Cp>>(it: I) -> Cp {
        it.fold(Cp::ZERO, Add::add)
    }
}

impl fmt::Display for Cp {
    /// `4`, `2.5`, `6.25`, `-0.5`: no trailing zeros, as the texts print costs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let q = self.0.abs();
        match q % 4 {
            0 => write!(f, "{sign}{}", q / 4),
            2 => write!(f, "{sign}{}.5", q / 4),
            r => write!(f, "{sign}{}.{}", q / 4, r * 25),
        }
    }
}

impl Serialize for Cp {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.as_f64())
    }
}

/// Read back as written: a number of CP, in quarter points.
impl<'de> serde::Deserialize<'de> for Cp {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Cp, D::Error> {
        let cp = f64::deserialize(d)?;
        let q = cp * 4.0;
        if q.fract() != 0.0 || !q.is_finite() || q.abs() > 1e15 {
            return Err(serde::de::Error::custom(format!(
                "{cp} CP is not a whole number of quarter points"
            )));
        }
        Ok(Cp::quarters(q as i64))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_like_the_texts() {
        assert_eq!(Cp::halves(1).to_string(), "0.5");
        assert_eq!(Cp::halves(5).to_string(), "2.5");
        assert_eq!(Cp::whole(4).to_string(), "4");
        assert_eq!(Cp::quarters(25).to_string(), "6.25");
        assert_eq!(Cp::quarters(3).to_string(), "0.75");
        assert_eq!(Cp::halves(-1).to_string(), "-0.5");
    }

    #[test]
    fn sums_are_exact() {
        // The minifig of Ch. 10: 0.5 + 2.5 + 1 = 4.
        let s: Cp = [Cp::halves(1), Cp::halves(5), Cp::whole(1)]
            .into_iter()
            .sum();
        assert_eq!(s, Cp::whole(4));
        assert_eq!(Cp::halves(3) * 2, Cp::whole(3));
    }
}
