//! The figures of counts: outcome histograms, kills by Explosion ring, and the units
//! standing turn by turn.

use super::*;

/// Each histogram metric (kills): P(value) for a spread of cells.
pub(super) fn histograms(frames: &Frames) -> Vec<Figure> {
    let Some(df) = &frames.distributions else {
        return Vec::new();
    };
    let (Some(cells), Some(metric), Some(value), Some(p)) = (
        numbers(df, "cell"),
        texts(df, "metric"),
        numbers(df, "value"),
        numbers(df, "probability"),
    ) else {
        return Vec::new();
    };
    let names = labels(&frames.summary, &frames.axes());
    let mut metrics: Vec<String> = metric.clone();
    metrics.sort();
    metrics.dedup();
    let mut out = Vec::new();
    for m in metrics {
        // Exact tables (Marks) are probabilities, not counted shares; their far tails
        // (below 1e-6) would stretch the axis without showing anything.
        let exact = matches!(m.as_str(), "pmf" | "done_at");
        let shown = spread(names.len(), 6);
        let mut series = Vec::new();
        let mut modes = Vec::new();
        for &c in &shown {
            let points: Vec<(f64, f64, f64, f64)> = (0..df.height())
                .filter(|&i| cells[i] == Some(c as f64) && metric[i] == m)
                .filter(|&i| !exact || p[i].is_some_and(|p| p >= 1e-6))
                .map(|i| {
                    let (x, y) = (value[i].unwrap_or(0.0), p[i].unwrap_or(0.0));
                    (x, y, y, y)
                })
                .collect();
            if let Some(mode) = points.iter().max_by(|a, b| a.1.total_cmp(&b.1)) {
                modes.push(format!(
                    "{} ({:.1}%) at {}",
                    mode.0,
                    mode.1 * 100.0,
                    names[c]
                ));
            }
            series.push(Series {
                label: names[c].clone(),
                points,
                dots: false,
                // Whole counts: drawn as a histogram's steps, not a slope between them.
                steps: true,
            });
        }
        let sentence = format!(
            "The most likely number of {}: {}{}. {}",
            counted_in(frames, &m),
            modes.join("; "),
            if shown.len() < names.len() {
                format!(" ({} of {} cells shown)", shown.len(), names.len())
            } else {
                String::new()
            },
            if exact {
                "Probabilities are exact (values below one in a million are not drawn)."
            } else {
                "Shares are the run's own counts."
            }
        );
        out.push(Figure {
            stem: format!("{m}_histogram"),
            chart: Chart {
                title: format!("How many {}", counted_in(frames, &m)),
                x_label: counted_in(frames, &m),
                y_label: if exact {
                    "probability (exact)".into()
                } else {
                    "share of trials".into()
                },
                body: Body::Lines {
                    series,
                    probability: false,
                },
            },
            sentence,
        });
    }
    out
}

/// Mean kills by Explosion ring (inner edge in inches) for a spread of cells.
pub(super) fn rings(frames: &Frames) -> Option<Figure> {
    let df = frames.by_ring.as_ref()?;
    let cells = numbers(df, "cell")?;
    let from = numbers(df, "inches_from")?;
    let k = triple(df, "mean_kills");
    let names = labels(&frames.summary, &frames.axes());
    let shown = spread(names.len(), 6);
    let mut series = Vec::new();
    let mut first = Vec::new();
    for &c in &shown {
        let points: Vec<(f64, f64, f64, f64)> = (0..df.height())
            .filter(|&i| cells[i] == Some(c as f64))
            .map(|i| (from[i].unwrap_or(0.0), k[i].0, k[i].1, k[i].2))
            .collect();
        if let Some(p) = points.first() {
            first.push((names[c].clone(), p.1, p.2, p.3));
        }
        series.push(Series {
            label: names[c].clone(),
            points,
            dots: false,
            steps: false,
        });
    }
    let best = first.iter().max_by(|a, b| a.1.total_cmp(&b.1))?;
    let sentence = format!(
        "Most kills fall in the first ring (0-2\"): up to {} a turn ({}). Each ring out loses \
         the highest Damage die (Ch. 8.4).",
        pm(best.1, best.2, best.3, false),
        best.0
    );
    Some(Figure {
        stem: "rings".into(),
        chart: Chart {
            title: "Kills by Explosion ring".into(),
            x_label: "ring's inner edge (inches from the blast)".into(),
            y_label: "mean kills a turn (95% CI band)".into(),
            body: Body::Lines {
                series,
                probability: false,
            },
        },
        sentence,
    })
}

/// Squad duels turn by turn: units standing on each side for a few cells, and with
/// Monstrous Contagion, the Minds converted (the conversion curve).
pub(super) fn turns(frames: &Frames) -> Vec<Figure> {
    let Some(df) = frames.by_turn.as_ref() else {
        return Vec::new();
    };
    let (Some(cells), Some(turn)) = (numbers(df, "cell"), numbers(df, "turn")) else {
        return Vec::new();
    };
    let names = labels(&frames.summary, &frames.axes());
    let series_of = |column: &str, c: usize| -> Vec<(f64, f64, f64, f64)> {
        let v = triple(df, column);
        (0..df.height())
            .filter(|&i| cells[i] == Some(c as f64))
            .map(|i| (turn[i].unwrap_or(0.0), v[i].0, v[i].1, v[i].2))
            .collect()
    };
    let label = |c: usize| {
        if names[c].is_empty() {
            String::new()
        } else {
            format!(" {}", names[c])
        }
    };
    let mut out = Vec::new();
    // Two lines a cell: four cells fill the eight colours.
    let shown = spread(names.len(), 4);
    let mut series = Vec::new();
    let mut ends = Vec::new();
    for &c in &shown {
        let named = |side: char, letter: &str| {
            crate::report::page::side_name(frames, side)
                .map_or(letter.to_string(), |n| format!("{letter} ({n})"))
        };
        for (side, column) in [
            (named('a', "A"), "standing_a"),
            (named('b', "B"), "standing_b"),
        ] {
            let points = series_of(column, c);
            if let Some(last) = points.last() {
                ends.push(format!(
                    "{side}{} {}",
                    label(c),
                    pm(last.1, last.2, last.3, false)
                ));
            }
            series.push(Series {
                label: format!("{side}{}", label(c)),
                points,
                dots: false,
                steps: false,
            });
        }
    }
    let last_turn = turn.iter().flatten().fold(0.0f64, |a, &b| a.max(b));
    out.push(Figure {
        stem: "standing_by_turn".into(),
        chart: Chart {
            title: "Units standing, turn by turn".into(),
            x_label: "player turn (each side's turn counts one)".into(),
            y_label: "units standing (mean, 95% CI band)".into(),
            body: Body::Lines {
                series,
                probability: false,
            },
        },
        sentence: format!(
            "After player turn {last_turn:.0}: {}{}. A fight that has ended keeps its final \
             count.",
            ends.join("; "),
            if shown.len() < names.len() {
                format!(" ({} of {} cells shown)", shown.len(), names.len())
            } else {
                String::new()
            }
        ),
    });
    if df.column("converted").is_ok() {
        let shown = spread(names.len(), 6);
        let mut series = Vec::new();
        let mut ends = Vec::new();
        for &c in &shown {
            let points = series_of("converted", c);
            if let Some(last) = points.last() {
                ends.push(format!(
                    "{} converted by turn {:.0}{}",
                    pm(last.1, last.2, last.3, false),
                    last.0,
                    label(c)
                ));
            }
            series.push(Series {
                label: names[c].clone(),
                points,
                dots: false,
                steps: false,
            });
        }
        out.push(Figure {
            stem: "converted_by_turn".into(),
            chart: Chart {
                title: "Monstrous Contagion: Minds converted, turn by turn".into(),
                x_label: "player turn (each side's turn counts one)".into(),
                y_label: "Minds converted (mean, 95% CI band)".into(),
                body: Body::Lines {
                    series,
                    probability: false,
                },
            },
            sentence: format!(
                "{}. A victim whose Mind the Poison destroys rises with the biters at the \
                 beginning of their next turn (Ch. 10.4).",
                ends.join("; ")
            ),
        });
    }
    out
}
