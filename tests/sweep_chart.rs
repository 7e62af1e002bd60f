//! The sweep chart rendered to SVG, and the sweep logic shared by the CLI and the page.

use crate::common;
use common::svg_texts as texts;
use schedlab::charts::{native, palette, sweep as chart};
use schedlab::sweep::{self, Stat, STAT_FIELDS};

fn render(values: &[String], lines: &[chart::SweepLine]) -> String {
    native::svg((700, 400), |root| {
        chart::draw(root, values, lines, "err", "MBS", "sweep").map_err(|e| e.to_string())
    })
    .unwrap()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn sweep_chart_draws_a_line_and_a_band_per_policy() {
    let values: Vec<String> = sweep::expand("0,0.5,...,1").unwrap();
    let labels = vec!["easy".to_string(), "pv-easy".to_string()];
    // Flat [mean, min, max] per value, first policy then second.
    let flat = [
        3.0, 2.0, 4.0, 2.5, 2.0, 3.0, 2.0, 1.5, 2.5, //
        5.0, 5.0, 5.0, 4.0, 3.0, 6.0, 3.5, 3.0, 4.0,
    ];
    assert!(chart::unflatten(&labels, 3, &flat[..15]).is_none());
    let lines = chart::unflatten(&labels, 3, &flat).unwrap();
    assert_eq!(lines.len(), 2);
    assert_eq!(
        lines[1].stats[1],
        Stat {
            mean: 4.0,
            min: 3.0,
            max: 6.0
        }
    );
    assert_eq!(flat.len(), 2 * 3 * STAT_FIELDS);
    let svg = render(&values, &lines);
    let t = texts(&svg);
    // Legend, axis descriptions and the ends of the numeric x axis.
    for want in ["easy", "pv-easy", "err", "MBS", "sweep", "0", "1"] {
        assert!(t.iter().any(|x| x == want), "no label {want:?}: {t:?}");
    }
    // A polyline (the means) and a polygon (the min-max band) in each policy's colour.
    for c in &palette::COLOURS[..2] {
        let colour = hex(*c);
        let lines = svg
            .split("<polyline")
            .skip(1)
            .filter(|p| p[..p.find('>').unwrap_or(p.len())].contains(colour.as_str()))
            .count();
        let bands = svg
            .split("<polygon")
            .skip(1)
            .filter(|p| p[..p.find('>').unwrap_or(p.len())].contains(colour.as_str()))
            .count();
        assert!(
            lines >= 1 && bands == 1,
            "{colour}: {lines} lines, {bands} bands"
        );
    }
}

#[test]
fn sweep_chart_labels_non_numeric_values_and_survives_degenerate_data() {
    let values = vec!["fcfs".to_string(), "sjf".to_string()];
    let lines = vec![chart::SweepLine {
        label: "easy".into(),
        stats: vec![Stat::of(&[1.0]), Stat::of(&[1.0])],
    }];
    let t = texts(&render(&values, &lines));
    assert!(
        t.iter().any(|x| x == "fcfs") && t.iter().any(|x| x == "sjf"),
        "{t:?}"
    );
    // One value, NaN stats, no line at all: still a chart, no panic.
    let one = vec!["0".to_string()];
    render(
        &one,
        &[chart::SweepLine {
            label: "x".into(),
            stats: vec![Stat::of(&[])],
        }],
    );
    render(&one, &[]);
}
