//! Plural endings for counts said in words ("1 cell", "3 cells"), one rule for every room
//! that prints.

/// The ending of a noun that takes `s` after count `n`: "" for one, "s" otherwise.
pub fn s<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "s" }
}

/// The ending of a noun that takes `es` after count `n` ("batch", "batches").
pub fn es<N: PartialEq + From<u8>>(n: N) -> &'static str {
    if n == N::from(1) { "" } else { "es" }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_takes_no_ending_and_every_other_count_does() {
        assert_eq!(format!("1 cell{}", s(1u64)), "1 cell");
        assert_eq!(format!("0 cell{}", s(0usize)), "0 cells");
        assert_eq!(format!("2 batch{}", es(2u32)), "2 batches");
        assert_eq!(format!("1 batch{}", es(1u8)), "1 batch");
    }
}
