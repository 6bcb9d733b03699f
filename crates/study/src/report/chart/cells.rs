//! A heatmap cell's look: its colour for a chance, and its figure with the ink to print it.

use plotters::style::{BLACK, RGBColor, WHITE};

/// A heatmap cell's colour for chance `p`: sequential, white at 0% to the palette's blue
/// at 100%; diverging, blue for the row's side ahead and orange behind, white at 50%.
pub(super) fn shade(p: f64, diverging: bool) -> RGBColor {
    if !diverging {
        let t = p.clamp(0.0, 1.0);
        return RGBColor(
            (255.0 - 255.0 * t) as u8,
            (255.0 - 141.0 * t) as u8,
            (255.0 - 77.0 * t) as u8,
        );
    }
    let t = ((p - 0.5) * 2.0).clamp(-1.0, 1.0);
    let (r, g, b) = if t >= 0.0 {
        (255.0 - 255.0 * t, 255.0 - 141.0 * t, 255.0 - 77.0 * t)
    } else {
        (255.0 + 42.0 * t, 255.0 + 161.0 * t, 255.0 + 255.0 * t)
    };
    RGBColor(r as u8, g as u8, b as u8)
}

/// A heatmap cell's figure ("-" for none; clamped, so a sum's rounding never prints
/// "-0%") and its ink: white on the darkest fills.
pub(super) fn cell_text(v: Option<f64>, diverging: bool) -> (String, RGBColor) {
    let text = v.map_or("-".to_string(), |p| {
        format!("{:.0}%", (p * 100.0).clamp(0.0, 100.0))
    });
    let ink = match v {
        Some(p) if !diverging && p > 0.6 => WHITE,
        Some(p) if diverging && (p - 0.5).abs() > 0.35 => WHITE,
        _ => BLACK,
    };
    (text, ink)
}
