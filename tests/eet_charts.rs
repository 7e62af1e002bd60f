//! The user-aware charts rendered to SVG strings: VEET / WT box plots and the EET heatmap.

use crate::common;
use schedlab::charts::eet_box::{self, box_stats, BoxStyle};
use schedlab::charts::eet_heatmap::{self, rows, HeatPanel, HeatStyle, RowOrder, LEGEND_STEPS};
use schedlab::charts::legend::Key;
use schedlab::charts::{native, palette};
use schedlab::metrics::eet_heatmap::{heatmap, Heatmap, Violation};

/// The attributes of every `<rect` element.
fn rect_tags(svg: &str) -> impl Iterator<Item = &str> {
    svg.split("<rect")
        .skip(1)
        .map(|r| &r[..r.find('>').unwrap_or(r.len())])
}

/// `<rect` elements whose fill is one of `fills`.
fn rects_with_fill(svg: &str, fills: &[String]) -> usize {
    rect_tags(svg)
        .filter(|r| fills.iter().any(|f| r.contains(f.as_str())))
        .count()
}

/// `<rect` elements filled with anything but white.
fn coloured_rects(svg: &str) -> usize {
    rect_tags(svg)
        .filter(|r| !r.contains("fill=\"#FFFFFF\"") && !r.contains("fill=\"none\""))
        .count()
}

fn palette_fills() -> Vec<String> {
    palette::COLOURS
        .iter()
        .map(|c| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2))
        .collect()
}

fn box_svg(series: &[(String, Vec<f64>)], log: bool) -> String {
    let style = BoxStyle {
        log,
        y_max: (!log).then_some(100.0),
        y_desc: "test".into(),
    };
    native::svg((600, 300), |root| {
        let labels: Vec<String> = series.iter().map(|s| s.0.clone()).collect();
        let keyed: Vec<(Key, Vec<f64>)> = Key::list(&labels)
            .into_iter()
            .zip(series.iter().map(|s| s.1.clone()))
            .collect();
        eet_box::draw(root, &keyed, &style, "box").map_err(|e| e.to_string())
    })
    .unwrap()
}

#[test]
fn box_stats_by_hand() {
    // [1, 2, 3, 4, 100]: q1 2, median 3, q3 4, IQR 2; far-out fences -4 and 10: 100 is a dot,
    // the whiskers end at 1 and 4.
    let (b, out) = box_stats(&[100.0, 3.0, 1.0, 4.0, 2.0]).unwrap();
    let q = b.quartiles;
    assert_eq!((q.q1, q.median, q.q3), (2.0, 3.0, 4.0));
    assert_eq!((b.low, b.high, out), (1.0, 4.0, vec![100.0]));
    // No extreme outlier: whiskers are the minimum and maximum.
    let (b, out) = box_stats(&[0.0, 10.0, 20.0, 30.0]).unwrap();
    assert_eq!((b.low, b.high), (0.0, 30.0));
    assert!(out.is_empty());
    assert!(box_stats(&[]).is_none());
}

#[test]
fn one_box_per_policy_with_users() {
    let series = vec![
        ("fcfs".to_string(), vec![0.0, 0.0, 0.0, 0.0, 100.0]),
        ("easy".to_string(), vec![10.0, 20.0, 30.0]),
        ("none".to_string(), vec![]),
    ];
    let svg = box_svg(&series, false);
    assert_eq!(rects_with_fill(&svg, &palette_fills()), 2);
    // fcfs: q1 = q3 = 0, so 100 is the one extreme outlier drawn as a dot.
    assert_eq!(svg.matches("<circle").count(), 1);
    // The policies label their boxes on the x axis.
    for label in ["fcfs", "easy", "none"] {
        assert!(svg.contains(&format!("\n{label}\n</text>")), "{label}");
    }
    // Log axis (WT_u): zeros drawn at the floor, still one box per non-empty series.
    let wt = vec![
        ("a".to_string(), vec![0.0, 5.0, 50.0, 5000.0]),
        ("b".to_string(), vec![0.0, 0.0]),
    ];
    assert_eq!(rects_with_fill(&box_svg(&wt, true), &palette_fills()), 2);
}

/// Two users: user 1 violated over [0, 300) twice (count 2), user 2 over [600, 660).
fn hand_map(bins: u32, width: f64) -> Heatmap {
    let v = [
        Violation {
            user: 1,
            start: 0,
            end: 300,
        },
        Violation {
            user: 1,
            start: 0,
            end: 300,
        },
        Violation {
            user: 2,
            start: 600,
            end: 660,
        },
    ];
    heatmap(&[1, 2, 3], &v, 0.0, width, bins)
}

fn heat_svg(maps: &[&Heatmap], style: &HeatStyle) -> String {
    let busy = [0.0, 4.0, 0.0, 500.0, 2.0, 0.0, 900.0, 0.0, 0.0];
    let panels: Vec<HeatPanel> = maps
        .iter()
        .enumerate()
        .map(|(i, m)| HeatPanel {
            title: format!("policy {i}"),
            map: m,
            busy: &busy,
            procs: 4,
            memory: None,
        })
        .collect();
    native::svg((800, 300 * maps.len() as u32), |root| {
        eet_heatmap::draw(root, &panels, style).map_err(|e| e.to_string())
    })
    .unwrap()
}

#[test]
fn heatmap_draws_one_cell_per_non_zero_bin() {
    // Bins of 60 s: user 1 lights bins 0-4, user 2 bin 10.
    let m = hand_map(20, 60.0);
    let cells: usize = m.rows.iter().map(|r| r.cells.len()).sum();
    assert_eq!(cells, 6);
    let svg = heat_svg(&[&m], &HeatStyle::default());
    assert_eq!(coloured_rects(&svg), cells + LEGEND_STEPS);
    // The busy strip is drawn (one polygon) and the rows are labelled by user.
    assert_eq!(svg.matches("<polygon").count(), 1);
    assert!(svg.contains("user 1") && svg.contains("user 2") && !svg.contains("user 3"));
    // Two panels: cells of both, one legend.
    let m2 = hand_map(7, 100.0);
    let cells2: usize = m2.rows.iter().map(|r| r.cells.len()).sum();
    assert_eq!(cells2, 3 + 1);
    let svg = heat_svg(&[&m, &m2], &HeatStyle::default());
    assert_eq!(coloured_rects(&svg), cells + cells2 + LEGEND_STEPS);
    assert_eq!(svg.matches("<polygon").count(), 2);
}

#[test]
fn heatmap_rows_can_be_sorted_left_out_or_shown_alone() {
    let m = hand_map(20, 60.0);
    let busy: [f64; 0] = [];
    let panel = [HeatPanel {
        title: String::new(),
        map: &m,
        busy: &busy,
        procs: 4,
        memory: None,
    }];
    // Totals: user 1 = 2 x 300 / 60 = 10, user 2 = 1; user 3 has none.
    assert_eq!(rows(&panel, &HeatStyle::default()), vec![1, 2]);
    let all = HeatStyle {
        all_users: true,
        order: RowOrder::User,
        ..HeatStyle::default()
    };
    assert_eq!(rows(&panel, &all), vec![1, 2, 3]);
    let exclude = HeatStyle {
        exclude: vec![1],
        ..HeatStyle::default()
    };
    assert_eq!(rows(&panel, &exclude), vec![2]);
    let svg = heat_svg(&[&m], &exclude);
    assert_eq!(coloured_rects(&svg), 1 + LEGEND_STEPS);
    let only = HeatStyle {
        only: vec![1],
        ..HeatStyle::default()
    };
    let svg = heat_svg(&[&m], &only);
    assert_eq!(coloured_rects(&svg), 5 + LEGEND_STEPS);
    // Nobody left: an empty panel that says so.
    let none = HeatStyle {
        only: vec![3],
        ..HeatStyle::default()
    };
    let svg = heat_svg(&[&m], &none);
    assert_eq!(coloured_rects(&svg), LEGEND_STEPS);
    assert!(svg.contains("no violated EETs"));
}

#[test]
fn heatmap_colour_scale_linear_and_log() {
    // User 1's cells hold 2, user 2's 1: on a linear scale 1 sits halfway, on a log scale at
    // ln 2 / ln 3 of the way; the largest cell gets the top colour either way.
    let m = hand_map(20, 60.0);
    let fill =
        |c: plotters::style::RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let top = fill(eet_heatmap::heat_colour(1.0));
    let svg = heat_svg(&[&m], &HeatStyle::default());
    let half = fill(eet_heatmap::heat_colour(0.5));
    assert_eq!(rects_with_fill(&svg, std::slice::from_ref(&top)), 5);
    assert_eq!(rects_with_fill(&svg, &[half]), 1);
    let log = HeatStyle {
        log: true,
        ..HeatStyle::default()
    };
    let svg = heat_svg(&[&m], &log);
    let at = fill(eet_heatmap::heat_colour(2f64.ln() / 3f64.ln()));
    assert_eq!(rects_with_fill(&svg, &[at]), 1);
    assert_eq!(rects_with_fill(&svg, &[top]), 5);
}

#[test]
fn plot_width_and_busy_averages() {
    assert_eq!(eet_heatmap::plot_width(1000), 1000 - 96 - 64 - 12);
    // Busy 4 over [0, 500), 2 over [500, 900), 0 after: columns of 300 s over [0, 1200).
    let busy = [0.0, 4.0, 0.0, 500.0, 2.0, 0.0, 900.0, 0.0, 0.0];
    let avg = eet_heatmap::column_average(&busy, 0.0, 1200.0, 4);
    let want = [4.0, (4.0 * 200.0 + 2.0 * 100.0) / 300.0, 2.0, 0.0];
    for (a, w) in avg.iter().zip(want) {
        assert!((a - w).abs() < 1e-12, "{avg:?}");
    }
}

#[test]
fn one_panel_alone_keeps_the_rows_and_colours_of_all_panels() {
    // Panel 0 has user 1's violations (cells of 2), panel 1 only user 2's (a cell of 1).
    let m0 = hand_map(20, 60.0);
    let v1 = [Violation {
        user: 2,
        start: 600,
        end: 660,
    }];
    let m1 = heatmap(&[1, 2, 3], &v1, 0.0, 60.0, 20);
    let busy = [0.0, 4.0, 0.0, 500.0, 2.0, 0.0, 900.0, 0.0, 0.0];
    let panels = [
        HeatPanel {
            title: "a".into(),
            map: &m0,
            busy: &[],
            procs: 4,
            memory: None,
        },
        HeatPanel {
            title: "b".into(),
            map: &m1,
            busy: &busy,
            procs: 4,
            memory: None,
        },
    ];
    let fill =
        |c: plotters::style::RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let mut shown = Vec::new();
    let svg = native::svg((800, 300), |root| {
        shown = eet_heatmap::draw_one(root, &panels, 1, &HeatStyle::default())
            .map_err(|e| e.to_string())?;
        Ok(())
    })
    .unwrap();
    // Rows from both panels (user 1 first: most violations), though panel 1 has none of user 1.
    assert_eq!(shown, vec![1, 2]);
    assert!(svg.contains("user 1") && svg.contains("user 2"));
    // One label per row, none for a row that does not exist.
    assert_eq!(svg.matches("\nuser 1\n").count(), 1, "{svg}");
    assert_eq!(svg.matches("\nuser 2\n").count(), 1);
    // Only panel 1's cell, coloured on the scale of both panels (max 2): halfway.
    assert_eq!(coloured_rects(&svg), 1 + LEGEND_STEPS);
    let half = fill(eet_heatmap::heat_colour(0.5));
    assert_eq!(rects_with_fill(&svg, &[half]), 1);
    assert_eq!(svg.matches("<polygon").count(), 1);
    // Out of range: a blank chart, no rows.
    let mut none = vec![0];
    native::svg((800, 300), |root| {
        none = eet_heatmap::draw_one(root, &panels, 2, &HeatStyle::default())
            .map_err(|e| e.to_string())?;
        Ok(())
    })
    .unwrap();
    assert!(none.is_empty());
}

#[test]
fn box_styles_of_the_two_figures() {
    assert_eq!(BoxStyle::veet().y_max, Some(100.0));
    assert!(!BoxStyle::veet().log && BoxStyle::wt().log);
}

#[test]
fn memory_in_use_and_its_strip_under_the_heatmap() {
    use common::{job_set_users, run, UJob};
    // 4 processors. J1: 2 procs x 100 KB (field 10) over [0, 50); J2: 2 procs x 30 KB used
    // (field 7 only) over [10, 40); J3: no memory figure, 4 procs over [50, 60).
    let j = |submit, run, procs, mem, used_mem| UJob {
        submit,
        run,
        procs,
        user: 1,
        wait: -1,
        mem,
        used_mem,
    };
    let set = job_set_users(
        4,
        &[
            j(0, 50, 2, 100, -1),
            j(10, 30, 2, -1, 30),
            j(20, 10, 4, -1, -1),
        ],
    );
    let s = run(&set, "fcfs");
    let mem =
        schedlab::metrics::eet_heatmap::memory_series(&set, &s).expect("the trace has memory");
    // 200 KB from 0, +60 at 10, -60 at 40, -200 at 50 (J3 needs none).
    assert_eq!(mem, vec![0.0, 200.0, 10.0, 260.0, 40.0, 200.0, 50.0, 0.0]);
    let none = job_set_users(4, &[j(0, 50, 2, -1, -1)]);
    assert!(schedlab::metrics::eet_heatmap::memory_series(&none, &run(&none, "fcfs")).is_none());

    let m = heatmap(&[1], &[], 0.0, 1.0, 60);
    let busy = schedlab::charts::series::points(&s);
    let draw = |memory| {
        let panel = [HeatPanel {
            title: "t".into(),
            map: &m,
            busy: &busy,
            procs: 4,
            memory,
        }];
        native::svg((600, 300), |root| {
            eet_heatmap::draw(root, &panel, &HeatStyle::default()).map_err(|e| e.to_string())
        })
        .unwrap()
    };
    let with = draw(Some(eet_heatmap::MemoryStrip {
        series: &mem,
        capacity: 300.0,
    }));
    let without = draw(None);
    assert_eq!(
        with.matches("<polygon").count(),
        2,
        "busy and memory strips"
    );
    assert_eq!(without.matches("<polygon").count(), 1);
    assert!(with.contains("memory") && !without.contains("memory"));
}

/// A heatmap with no EET violated anywhere says so in its legend ("none"), where its scale read
/// "0.00" three times.
#[test]
fn a_heatmap_without_violations_says_none() {
    let empty = heatmap(&[1, 2], &[], 0.0, 60.0, 10);
    let svg = heat_svg(&[&empty], &HeatStyle::default());
    let texts = common::svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "none"), "{texts:?}");
    assert!(!texts.iter().any(|t| t == "0.00"), "{texts:?}");
    let svg = heat_svg(&[&hand_map(10, 60.0)], &HeatStyle::default());
    let texts = common::svg_texts(&svg);
    assert!(!texts.iter().any(|t| t == "none"));
    // Its scale: user 1's two violations at once are the most, so 2, 1 and 0, written as
    // whole numbers (they read "2.00", "1.00", "0.00").
    for label in ["2", "1", "0"] {
        assert!(texts.iter().any(|t| t == label), "{label}: {texts:?}");
    }
    assert!(!texts.iter().any(|t| t.ends_with(".00")), "{texts:?}");
}
