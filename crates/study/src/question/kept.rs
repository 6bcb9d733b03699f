//! Reading a kept answer back (a cell file, [`crate::experiment::cell::unseal`]). JSON
//! writes a figure with no trials behind it (NaN) as `null`, so these read `null` back as
//! NaN. Every other number reads back to the same bits (serde_json's `float_roundtrip`).

use serde::{Deserialize, Deserializer};

/// A figure: `null` is NaN.
pub fn real<'de, D: Deserializer<'de>>(d: D) -> Result<f64, D::Error> {
    Ok(Option::<f64>::deserialize(d)?.unwrap_or(f64::NAN))
}

/// A CI: each `null` end is NaN.
pub fn pair<'de, D: Deserializer<'de>>(d: D) -> Result<[f64; 2], D::Error> {
    let [lo, hi] = <[Option<f64>; 2]>::deserialize(d)?;
    Ok([lo.unwrap_or(f64::NAN), hi.unwrap_or(f64::NAN)])
}

/// A figure an answer may lack: missing or `null`, none (a row takes a NaN figure and a
/// missing one alike: no number).
pub fn maybe_real<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    Option::<f64>::deserialize(d)
}

/// A CI an answer may lack: missing or `null`, none; each `null` end is NaN.
pub fn maybe_pair<'de, D: Deserializer<'de>>(d: D) -> Result<Option<[f64; 2]>, D::Error> {
    let ends = Option::<[Option<f64>; 2]>::deserialize(d)?;
    Ok(ends.map(|[lo, hi]| [lo.unwrap_or(f64::NAN), hi.unwrap_or(f64::NAN)]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Deserialize, Debug)]
    struct Figures {
        #[serde(deserialize_with = "real")]
        p: f64,
        #[serde(deserialize_with = "pair")]
        ci: [f64; 2],
        #[serde(default, deserialize_with = "maybe_real")]
        q: Option<f64>,
        #[serde(default, deserialize_with = "maybe_pair")]
        r: Option<[f64; 2]>,
    }

    #[test]
    fn null_reads_back_as_nan_and_numbers_to_the_same_bits() {
        let f: Figures = serde_json::from_str(r#"{"p":null,"ci":[null,0.1],"r":null}"#).unwrap();
        assert!(f.p.is_nan() && f.ci[0].is_nan());
        assert_eq!((f.ci[1], f.q, f.r), (0.1, None, None));
        let f: Figures = serde_json::from_str(r#"{"p":1,"ci":[0,1],"r":[null,2]}"#).unwrap();
        assert!(f.r.unwrap()[0].is_nan() && f.r.unwrap()[1] == 2.0);
        // A 17-digit figure, which the default reader could miss by a bit.
        let x = 0.011562359314609586_f64;
        let text = format!(r#"{{"p":{x},"ci":[{x},{x}],"q":{x}}}"#);
        let f: Figures = serde_json::from_str(&text).unwrap();
        assert_eq!(
            [f.p, f.ci[0], f.ci[1], f.q.unwrap()].map(f64::to_bits),
            [x.to_bits(); 4]
        );
    }
}
