//! A battle's sides as answers name them: their units and CP, and what a side pays for and
//! never uses in this battle (issue 21). The command line and the browser page print these.

use super::Squad;
use crate::catalog::cp::Cp;

impl Squad {
    /// Side `side`'s CP as fielded.
    pub fn side_cp(&self, side: u8) -> Cp {
        (0..self.kinds().len())
            .filter(|&i| self.kind_side(i) == side)
            .map(|i| self.kinds()[i].cp * self.units_of(i) as i64)
            .fold(Cp::ZERO, |a, b| a + b)
    }

    /// Side `side` as fielded: "6 x minifig-hand-weapon (7 CP each)  = 42 CP".
    pub fn described(&self, side: u8) -> String {
        let mut parts = Vec::new();
        for (i, k) in self.kinds().iter().enumerate() {
            if self.kind_side(i) == side {
                parts.push(format!(
                    "{} x {} ({} CP each)",
                    self.units_of(i),
                    k.key,
                    k.cp
                ));
            }
        }
        format!("{}  = {} CP", parts.join(" + "), self.side_cp(side))
    }

    /// Side `side`'s parts that cost CP and do nothing in this battle, one line each.
    pub fn inert_lines(&self, side: u8) -> Vec<String> {
        let mut v = Vec::new();
        for (key, x) in self.inert(side) {
            let line = format!("{key}: {x}");
            if !v.contains(&line) {
                v.push(line);
            }
        }
        v
    }
}
