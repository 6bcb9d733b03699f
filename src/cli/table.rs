//! Terminal formatting: probabilities, bars, and whether output is a terminal.

use std::io::IsTerminal;

/// A probability for a table: six decimals, scientific below 1e-4 so small chances keep
/// their digits, and an exact zero printed as `0`.
pub fn prob(p: f64) -> String {
    if p == 0.0 {
        "0".into()
    } else if p >= 1e-4 {
        format!("{p:.6}")
    } else {
        format!("{p:.3e}")
    }
}

/// A horizontal bar of `fraction` (0..=1) of `width` cells: Unicode eighths on a terminal,
/// `#` in a pipe.
pub fn bar(fraction: f64, width: usize, unicode: bool) -> String {
    let cells = (fraction.clamp(0.0, 1.0) * width as f64 * 8.0).round() as usize;
    if !unicode {
        return "#".repeat((cells + 4) / 8);
    }
    const PARTS: [&str; 8] = ["", "▏", "▎", "▍", "▌", "▋", "▊", "▉"];
    let mut s = "█".repeat(cells / 8);
    s.push_str(PARTS[cells % 8]);
    s
}

/// Whether stdout is a terminal (bars in Unicode, otherwise plain ASCII).
pub fn stdout_is_terminal() -> bool {
    std::io::stdout().is_terminal()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn probabilities_keep_their_digits() {
        assert_eq!(prob(0.0), "0");
        assert_eq!(prob(0.5), "0.500000");
        assert_eq!(prob(1.0 / 36.0), "0.027778");
        assert_eq!(prob(1.234e-7), "1.234e-7");
    }

    #[test]
    fn bars_scale() {
        assert_eq!(bar(1.0, 4, true), "████");
        assert_eq!(bar(0.5, 4, false), "##");
        assert_eq!(bar(1.0 / 32.0, 4, true), "▏");
        assert_eq!(bar(0.0, 4, true), "");
    }
}
