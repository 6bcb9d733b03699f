//! Tallies: plain integer values that add, so merge order never changes a result.

use std::ops::Add;

/// Counts of integer outcomes over a contiguous range that grows as needed.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Histogram {
    min: i64,
    counts: Vec<u64>,
}

impl Histogram {
    /// Counts one outcome. Allocates only when `v` falls outside every value seen so far.
    #[inline]
    pub fn record(&mut self, v: i64) {
        if self.counts.is_empty() {
            self.min = v;
            self.counts.push(0);
        }
        if v < self.min {
            let grow = (self.min - v) as usize;
            self.counts.splice(0..0, std::iter::repeat_n(0, grow));
            self.min = v;
        }
        let i = (v - self.min) as usize;
        if i >= self.counts.len() {
            self.counts.resize(i + 1, 0);
        }
        self.counts[i] += 1;
    }

    /// How many outcomes were `v`.
    pub fn count(&self, v: i64) -> u64 {
        if v < self.min {
            return 0;
        }
        self.counts
            .get((v - self.min) as usize)
            .copied()
            .unwrap_or(0)
    }

    /// Outcomes counted.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// `(value, count)` for every value with a slot, smallest first.
    pub fn iter(&self) -> impl Iterator<Item = (i64, u64)> + '_ {
        self.counts
            .iter()
            .enumerate()
            .map(move |(i, &c)| (self.min + i as i64, c))
    }

    /// Sum and sum of squares of the outcomes (exact in i128).
    pub fn moments(&self) -> (i128, i128) {
        self.iter().fold((0, 0), |(s, q), (v, c)| {
            let (v, c) = (v as i128, c as i128);
            (s + v * c, q + v * v * c)
        })
    }
}

impl Add for Histogram {
    type Output = Histogram;
    fn add(mut self, other: Histogram) -> Histogram {
        for (v, c) in other.iter().filter(|&(_, c)| c > 0) {
            if self.counts.is_empty() {
                self.min = v;
                self.counts.push(0);
            }
            self.record(v);
            let i = (v - self.min) as usize;
            self.counts[i] += c - 1;
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(vs: &[i64]) -> Histogram {
        let mut h = Histogram::default();
        for &v in vs {
            h.record(v);
        }
        h
    }

    #[test]
    fn records_in_any_order() {
        let h = hist(&[3, -2, 3, 7]);
        assert_eq!(h.count(3), 2);
        assert_eq!(h.count(-2), 1);
        assert_eq!(h.count(0), 0);
        assert_eq!(h.count(100), 0);
        assert_eq!(h.total(), 4);
        assert_eq!(h.moments(), (11, 9 + 4 + 9 + 49));
    }

    #[test]
    fn add_is_order_free() {
        let a = hist(&[1, 2, 2]);
        let b = hist(&[-5, 9]);
        let ab = a.clone() + b.clone();
        let ba = b + a;
        let all = hist(&[1, 2, 2, -5, 9]);
        for v in -6..11 {
            assert_eq!(ab.count(v), all.count(v));
            assert_eq!(ba.count(v), all.count(v));
        }
        assert_eq!(ab.total(), 5);
        assert_eq!((Histogram::default() + hist(&[4])).count(4), 1);
    }
}

/// The sum and sum of squares of a per-trial count: what a mean's CI needs.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Moments {
    /// Sum of the values.
    pub sum: u64,
    /// Sum of their squares.
    pub sum_sq: u128,
}

impl Moments {
    /// Nothing counted.
    pub const ZERO: Moments = Moments { sum: 0, sum_sq: 0 };

    /// Counts one trial's value.
    #[inline]
    pub fn record(&mut self, v: u64) {
        self.sum += v;
        self.sum_sq += (v as u128) * (v as u128);
    }

    /// The mean over `trials` trials with its 95% CI.
    pub fn mean(&self, trials: u64) -> super::Estimate {
        super::Estimate::mean(
            self.sum as i128,
            self.sum_sq as i128,
            trials,
            super::CONFIDENCE,
        )
    }
}

add_by_field!(Moments { sum, sum_sq });

/// A part of a tally that adds up across batches: counts, sums, histograms, and arrays of
/// them, element by element.
pub trait Merge {
    /// `self` and `other` together.
    fn merge(self, other: Self) -> Self;
}

macro_rules! merge_by_add {
    ($($t:ty),+) => {
        $(impl Merge for $t {
            #[inline]
            fn merge(self, other: $t) -> $t {
                self + other
            }
        })+
    };
}
merge_by_add!(u32, u64, u128, i64, i128, Histogram, Moments);

impl<T: Merge + Default, const N: usize> Merge for [T; N] {
    fn merge(mut self, other: [T; N]) -> [T; N] {
        for (a, b) in self.iter_mut().zip(other) {
            *a = std::mem::take(a).merge(b);
        }
        self
    }
}

/// `impl Add` for a tally that adds up field by field, each field a [`Merge`]. Every field
/// is named (a struct literal), so a new one does not compile until it is listed.
macro_rules! add_by_field {
    ($t:ident { $($f:ident),+ $(,)? }) => {
        impl std::ops::Add for $t {
            type Output = $t;
            fn add(self, o: $t) -> $t {
                $t { $($f: $crate::sim::tally::Merge::merge(self.$f, o.$f)),+ }
            }
        }
    };
}
pub(crate) use add_by_field;

#[cfg(test)]
mod moments_tests {
    use super::*;

    #[test]
    fn merge_adds_counts_arrays_and_histograms_element_by_element() {
        assert_eq!(
            [[1u64, 2], [3, 4]].merge([[10, 20], [30, 40]]),
            [[11, 22], [33, 44]]
        );
        assert_eq!([-3i128, 5].merge([1, 1]), [-2, 6]);
        let m = Moments { sum: 3, sum_sq: 5 }.merge(Moments { sum: 1, sum_sq: 1 });
        assert_eq!((m.sum, m.sum_sq), (4, 6));
        let mut a = Histogram::default();
        a.record(2);
        let mut b = Histogram::default();
        b.record(-1);
        let [h] = [a].merge([b]);
        assert_eq!((h.count(2), h.count(-1), h.total()), (1, 1, 2));
    }

    #[test]
    fn moments_add_and_give_the_mean() {
        let mut a = Moments::ZERO;
        for v in [1, 2] {
            a.record(v);
        }
        let mut b = Moments::ZERO;
        for v in [3, 4] {
            b.record(v);
        }
        let m = a + b;
        assert_eq!((m.sum, m.sum_sq), (10, 30));
        // 1..4: mean 2.5, sample variance 5/3.
        let e = m.mean(4);
        assert_eq!(e.point, 2.5);
        assert!((e.standard_error - (5.0f64 / 12.0).sqrt()).abs() < 1e-15);
    }
}

/// Serde for fixed arrays of any length (serde derives only up to 32): a list, checked for
/// its length when read. `#[serde(with = "crate::sim::tally::fixed")]`.
pub mod fixed {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    /// Writes the array as a list.
    pub fn serialize<S: Serializer, T: Serialize, const N: usize>(
        a: &[T; N],
        s: S,
    ) -> Result<S::Ok, S::Error> {
        a.as_slice().serialize(s)
    }

    /// Reads a list of exactly `N`.
    pub fn deserialize<'de, D: Deserializer<'de>, T: Deserialize<'de>, const N: usize>(
        d: D,
    ) -> Result<[T; N], D::Error> {
        let v: Vec<T> = Vec::deserialize(d)?;
        let len = v.len();
        v.try_into()
            .map_err(|_| D::Error::invalid_length(len, &format!("{N} counts").as_str()))
    }
}
