//! The matchups figure: every unit against every other at equal CP, as a heatmap.

use super::*;

/// The matchup matrix as a heatmap, and the scores as bars.
pub(super) fn matchups(frames: &Frames) -> Vec<Figure> {
    let Some(df) = &frames.matchups else {
        return Vec::new();
    };
    let (Some(unit), Some(opp), Some(p)) = (
        texts(df, "unit"),
        texts(df, "opponent"),
        numbers(df, "p_wins"),
    ) else {
        return Vec::new();
    };
    let score = triple(df, "score");
    let mut names: Vec<String> = Vec::new();
    for u in &unit {
        if !names.contains(u) {
            names.push(u.clone());
        }
    }
    let n = names.len();
    let idx = |s: &str| names.iter().position(|x| x == s).unwrap_or(0);
    let mut values = vec![vec![None; n]; n];
    let mut scores = vec![(0.0, 0.0, 0.0); n];
    for i in 0..df.height() {
        values[idx(&unit[i])][idx(&opp[i])] = p[i];
        scores[idx(&unit[i])] = score[i];
    }
    let best = (0..n).max_by(|&a, &b| scores[a].0.total_cmp(&scores[b].0));
    let worst = (0..n).min_by(|&a, &b| scores[a].0.total_cmp(&scores[b].0));
    let lopsided =
        (0..df.height()).max_by(|&a, &b| p[a].unwrap_or(0.0).total_cmp(&p[b].unwrap_or(0.0)));
    let (Some(best), Some(worst), Some(l)) = (best, worst, lopsided) else {
        return Vec::new();
    };
    // The experiment as written says what the sides have in common: CP, or heads.
    let line = |key: &str| {
        frames
            .manifest
            .get("source")
            .and_then(|s| s.as_str())
            .and_then(|s| s.lines().find(|l| l.trim_start().starts_with(key)))
            .map(|l| l.trim().to_string())
    };
    let equal = match (line("budget"), line("count")) {
        (Some(b), _) => format!("equal CP {b}"),
        (None, Some(c)) => {
            let n = c.split_once('=').map_or(c.as_str(), |(_, n)| n.trim());
            format!("equal heads ({n} of each)")
        }
        (None, None) => "equal CP".into(),
    };
    let sentence = format!(
        "{} scores best ({} over its opponents) and {} worst ({}); the most one-sided pairing \
         is {} against {}, won {:.0}% of the time.",
        names[best],
        pm(scores[best].0, scores[best].1, scores[best].2, true),
        names[worst],
        pm(scores[worst].0, scores[worst].1, scores[worst].2, true),
        unit[l],
        opp[l],
        p[l].unwrap_or(0.0) * 100.0
    );
    let mut bars: Vec<(String, f64, f64, f64)> = (0..n)
        .map(|i| (names[i].clone(), scores[i].0, scores[i].1, scores[i].2))
        .collect();
    bars.sort_by(|a, b| a.1.total_cmp(&b.1));
    vec![
        Figure {
            stem: "matchups".into(),
            chart: Chart {
                title: format!("Who beats whom at {equal}"),
                x_label: "opponent (column number = row number)".into(),
                y_label: "unit".into(),
                body: Body::Heatmap {
                    // Rows "1 name"; columns numbered the same way.
                    rows: (0..n).map(|i| format!("{} {}", i + 1, names[i])).collect(),
                    columns: (1..=n).map(|j| j.to_string()).collect(),
                    values,
                    diverging: true,
                    draws: None,
                },
            },
            sentence,
        },
        Figure {
            stem: "scores".into(),
            chart: Chart {
                title: "Score: mean chance of winning over every opponent".into(),
                x_label: "score (a draw counts half; 95% CI)".into(),
                y_label: String::new(),
                body: Body::Bars {
                    bars,
                    probability: true,
                },
            },
            sentence: "The ranking at this budget: a score of 50% is an even unit.".into(),
        },
    ]
}
