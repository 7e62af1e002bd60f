//! Distributions and two schedules compared: CDFs, class box plots, the A-vs-B scatter and the
//! diff-Gantt, on values and schedules worked out by hand, rendered as SVG.

use crate::common;
use common::{job_set, run, svg_texts};
use schedlab::charts::legend::Key;
use schedlab::charts::{cdf, class_box, diff_gantt, gantt, native, scatter};

fn fill(c: plotters::style::RGBColor) -> String {
    format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2)
}

/// A rectangle of job 0 (user 1) over `[start, end)` x `[lo, hi)`.
fn rect(start: f64, end: f64, lo: u32, hi: u32) -> gantt::Rect {
    gantt::Rect {
        start,
        end,
        lo,
        hi,
        user: 1,
        job: 0,
        preempted: false,
        lane: false,
    }
}

/// The diff-Gantt of `a` and `b` on `procs` processors over `[0, t1]`, 700 x 300 pixels, as SVG;
/// `labels` and `title` as [`diff_gantt::DiffStyle`], the y axis named `y_desc`.
fn diff_svg(
    (a, b): (&[gantt::Rect], &[gantt::Rect]),
    procs: u32,
    t1: f64,
    [label_a, label_b, title]: [&str; 3],
    [x_desc, y_desc]: [&str; 2],
) -> String {
    let style = diff_gantt::DiffStyle {
        labels: [label_a, label_b],
        title,
        x_desc,
        y_desc,
    };
    native::svg((700, 300), |root| {
        diff_gantt::draw(root, a, b, procs, 0.0, t1, &style)
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap()
}

#[test]
fn cdf_shares_and_one_line_per_policy() {
    let v = cdf::sorted(&[30.0, 0.0, f64::NAN, 10.0, 10.0]);
    assert_eq!(v, vec![0.0, 10.0, 10.0, 30.0]);
    assert_eq!(cdf::share_at(&v, 0.0), 0.25);
    assert_eq!(cdf::share_at(&v, 9.9), 0.25);
    assert_eq!(cdf::share_at(&v, 10.0), 0.75);
    assert_eq!(cdf::share_at(&v, 1e9), 1.0);
    assert_eq!(cdf::share_at(&[], 5.0), 0.0);
    let keys = Key::list(&["easy".to_string(), "fcfs".to_string()]);
    let series = vec![
        (keys[0].clone(), v.clone()),
        (keys[1].clone(), vec![100.0, 1000.0]),
    ];
    let svg = native::svg((600, 300), |root| {
        cdf::draw(root, &series, &cdf::CdfStyle::wait(), "cdf").map_err(|e| e.to_string())
    })
    .unwrap();
    for c in &schedlab::charts::palette::COLOURS[..2] {
        let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        let lines = svg
            .split("<polyline")
            .filter(|l| l.contains(&stroke))
            .count();
        assert_eq!(lines, 1, "one line per policy");
    }
    let texts = svg_texts(&svg);
    assert!(texts.iter().any(|t| t == "easy") && texts.iter().any(|t| t == "fcfs"));
}

#[test]
fn job_classes_and_boxes_by_hand() {
    // Machine of 16: 1 is serial, up to 4 small, above 4 big.
    let classes: Vec<u8> = [1.0, 2.0, 4.0, 5.0, 16.0]
        .iter()
        .map(|&p| class_box::size_class(p, 16))
        .collect();
    assert_eq!(classes, vec![0, 1, 1, 2, 2]);
    assert_eq!(
        [599.0, 600.0, 10_799.0, 10_800.0].map(class_box::runtime_class),
        [0, 1, 1, 2]
    );
    let values = [0.0, 10.0, 20.0, 30.0, 40.0, f64::NAN];
    let b = class_box::boxes(&values, &[0, 0, 0, 1, 1, 1], 3);
    let c0 = b[0].unwrap();
    // [0, 10, 20]: median 10; nearest rank 5 % = 1st value, 95 % = 3rd value.
    assert_eq!(
        (c0.p5, c0.quartiles.median, c0.p95, c0.n),
        (0.0, 10.0, 20.0, 3)
    );
    let c1 = b[1].unwrap();
    assert_eq!((c1.p5, c1.p95, c1.n), (30.0, 40.0, 2), "NaN left out");
    assert!(b[2].is_none());
    let svg = native::svg((600, 300), |root| {
        class_box::draw(
            root,
            &class_box::SIZE_CLASSES,
            &Key::list(&["easy".into()]),
            std::slice::from_ref(&b),
            1.0,
            "wait",
            "boxes",
        )
        .map_err(|e| e.to_string())
    })
    .unwrap();
    let blue = schedlab::charts::palette::COLOURS[0];
    // Two boxes (filled and outlined each) and the legend swatch.
    let filled = svg
        .split("<rect")
        .filter(|r| r.contains(&fill(blue)))
        .count();
    assert_eq!(filled, 2 + 1, "{svg}");
    let texts = svg_texts(&svg);
    assert!(
        class_box::SIZE_CLASSES.iter().all(|c| texts
            .iter()
            .any(|t| t.contains(c.split(" (").next().unwrap()))),
        "{texts:?}"
    );
}

#[test]
fn scatter_draws_each_pixel_once_and_reports_its_axes() {
    let xs = [10.0, 10.0, 100.0, f64::NAN];
    let ys = [20.0, 20.0, 5.0, 1.0];
    let slots = [0, 0, 1, 0];
    let style = scatter::ScatterStyle {
        floor: 1.0,
        x_desc: "A".into(),
        y_desc: "B".into(),
        legend: vec![],
    };
    let mut out = None;
    let svg = native::svg((500, 400), |root| {
        out = Some(scatter::draw(root, &xs, &ys, &slots, &style, "s").map_err(|e| e.to_string())?);
        Ok(())
    })
    .unwrap();
    // Two distinct points (the duplicate drawn once, the NaN left out), as 3 x 3 squares.
    let squares = |c: plotters::style::RGBColor| {
        svg.split("<rect")
            .filter(|r| r.contains(&fill(c)) && r.contains("width=\"3\""))
            .count()
    };
    let colours = schedlab::charts::palette::COLOURS;
    assert_eq!((squares(colours[0]), squares(colours[1])), (1, 1));
    let (area, top) = out.unwrap();
    assert!(area[0] < area[2] && area[1] < area[3]);
    assert_eq!(top, 150.0, "the largest value x 1.5");
}

#[test]
fn diff_gantt_grid_by_hand_and_on_two_policies() {
    // 4 processors x [0, 100) at 4 x 4 cells: A on processors 0-1 over [0, 50), B on 0-1 over
    // [25, 100). Row 0 is the top (processors 3-4).
    let g = diff_gantt::grid(
        &[rect(0.0, 50.0, 0, 2)],
        &[rect(25.0, 100.0, 0, 2)],
        4,
        0.0,
        100.0,
        4,
        4,
    );
    assert_eq!(g, vec![0, 0, 0, 0, 0, 0, 0, 0, 1, 3, 2, 2, 1, 3, 2, 2]);
    // FCFS and EASY on the hole example differ (EASY backfills): some cells are A or B only.
    let set = job_set(
        10,
        &[
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 50, 4, 50),
            (3, 200, 2, 200),
        ],
    );
    let (a, b) = (
        gantt::rects(&set, &run(&set, "fcfs")),
        gantt::rects(&set, &run(&set, "easy")),
    );
    let svg = diff_svg((&a, &b), 10, 400.0, ["fcfs", "easy", "diff"], ["", ""]);
    for c in diff_gantt::DIFF_COLOURS {
        // Each state drawn, plus its legend swatch.
        assert!(
            svg.split("<rect").filter(|r| r.contains(&fill(c))).count() >= 2,
            "{c:?}"
        );
    }
    // The same schedule twice: only "both" (and the legend swatches).
    let svg = diff_svg((&a, &a), 10, 400.0, ["x", "y", "same"], ["", ""]);
    for c in &diff_gantt::DIFF_COLOURS[..2] {
        assert_eq!(
            svg.split("<rect").filter(|r| r.contains(&fill(*c))).count(),
            1
        );
    }
}

#[test]
fn bin_means_are_time_weighted_by_hand() {
    use schedlab::charts::binned::{bin_means, draw, BinnedStyle};
    // Busy 4 on [0, 30), 10 on [30, 120), 0 from 120; bins of 60 s:
    // [0, 60): (4 x 30 + 10 x 30) / 60 = 7; [60, 120): 10.
    let flat = [0.0, 4.0, 1.0, 30.0, 10.0, 0.0, 120.0, 0.0, 0.0];
    assert_eq!(bin_means(&flat, 1, 60.0), vec![(0.0, 7.0), (60.0, 10.0)]);
    // Queue column: 1 on [0, 30), 0 after.
    assert_eq!(bin_means(&flat, 2, 60.0), vec![(0.0, 0.5), (60.0, 0.0)]);
    // A bin of 40 s: [0, 40) = (4 x 30 + 10 x 10) / 40, [40, 80) = 10, [80, 120) = 10.
    assert_eq!(
        bin_means(&flat, 1, 40.0),
        vec![(0.0, 5.5), (40.0, 10.0), (80.0, 10.0)]
    );
    assert!(bin_means(&[], 1, 60.0).is_empty());
    // Twelve policies overlaid: every one named in the legend beside the plot.
    let series: Vec<Vec<f64>> = (0..12).map(|_| flat.to_vec()).collect();
    let labels: Vec<String> = (0..12).map(|i| format!("policy{i}")).collect();
    let keys = Key::list(&labels);
    let render = |size: (u32, u32), style: BinnedStyle| {
        native::svg(size, |root| {
            draw(root, &series, &keys, 1, &style, "busy").map_err(|e| e.to_string())
        })
        .unwrap()
    };
    let highlighted = BinnedStyle {
        highlight: Some(3),
        ..BinnedStyle::overlaid(60.0)
    };
    let texts = svg_texts(&render((600, 300), highlighted));
    assert!(labels.iter().all(|l| texts.contains(l)));
    // As small multiples: a panel titled with each policy, its line in its colour over the
    // others in grey (each panel draws all twelve lines).
    let multiples = BinnedStyle {
        columns: 3,
        ..BinnedStyle::overlaid(60.0)
    };
    let svg = render((900, 600), multiples);
    let texts = svg_texts(&svg);
    assert!(labels.iter().all(|l| texts.contains(l)));
    let grey = svg.matches("stroke=\"#C8C8C8\"").count();
    assert_eq!(grey, 12 * 11, "each panel draws the eleven others in grey");
    for k in &keys[..12] {
        let c = k.colour;
        let own = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
        assert!(svg.contains(&own), "{} in its colour", k.label);
    }
}

#[test]
fn bars_turn_horizontal_when_their_labels_would_touch() {
    use schedlab::charts::{bars, palette::COLOURS};
    // Six short labels fit under columns; six long ones do not, and the bars turn horizontal.
    let short: Vec<String> = (0..6).map(|i| format!("p{i}")).collect();
    let svg = native::svg((600, 300), |root| {
        bars::draw(root, &Key::list(&short), &[1.0; 6], "wait").map_err(|e| e.to_string())
    })
    .unwrap();
    let rect = |svg: &str| svg.split("<rect").nth(2).unwrap_or("").to_string();
    let tall = |r: &str| {
        let num = |k: &str| -> f64 {
            let at = r.find(&format!(" {k}=\"")).unwrap() + k.len() + 3;
            r[at..at + r[at..].find('"').unwrap()].parse().unwrap()
        };
        num("height") > num("width")
    };
    assert!(tall(&rect(&svg)), "short labels: columns");
    let labels: Vec<String> = (0..6)
        .map(|i| format!("conservative[queue=sjf] {i}"))
        .collect();
    let svg = native::svg((600, 300), |root| {
        bars::draw(
            root,
            &Key::list(&labels),
            &[1.0, 2.0, 3.0, 4.0, 5.0, 0.0],
            "wait",
        )
        .map_err(|e| e.to_string())
    })
    .unwrap();
    let bars: usize = COLOURS[..6]
        .iter()
        .map(|&c| svg.split("<rect").filter(|r| r.contains(&fill(c))).count())
        .sum();
    assert_eq!(bars, 6);
    let texts = svg_texts(&svg);
    assert!(labels.iter().all(|l| texts.contains(l)));
}

#[test]
fn the_difference_gantt_draws_the_same_svg_every_time() {
    // Its cells were once collected from a HashMap: the SVG's element order then changed from
    // one process (and one call) to the next.
    let set = job_set(
        10,
        &[
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 50, 4, 50),
            (3, 200, 2, 200),
            (5, 30, 3, 30),
            (6, 80, 5, 80),
        ],
    );
    let (a, b) = (
        gantt::rects(&set, &run(&set, "fcfs")),
        gantt::rects(&set, &run(&set, "easy")),
    );
    let draw = || diff_svg((&a, &b), 10, 500.0, ["fcfs", "easy", "diff"], ["", ""]);
    let first = draw();
    for _ in 0..20 {
        assert_eq!(draw(), first);
    }
}

/// On a narrow chart the horizontal bars' value labels thin out until they cannot touch (twelve
/// policies, waits to 4,500 s, 400 px: "1000150020002500" once).
#[test]
fn narrow_bars_thin_their_value_labels() {
    use schedlab::charts::bars;
    let labels: Vec<String> = (0..12).map(|i| format!("easy[queue=sjf] {i}")).collect();
    let values: Vec<f64> = (0..12).map(|i| 300.0 + 350.0 * f64::from(i)).collect();
    let svg = native::svg((400, 300), |root| {
        bars::draw(root, &Key::list(&labels), &values, "Mean wait (s)").map_err(|e| e.to_string())
    })
    .unwrap();
    // (x, text) of the numeric labels of the value axis (one row, below the bars).
    let mut numbers: Vec<(f64, String)> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|t| {
            let (tag, body) = t.split_once('>')?;
            let text = body[..body.find("</text>")?].trim().to_string();
            text.parse::<f64>().ok()?;
            let at = tag
                .find(" x=\"")
                .or_else(|| tag.starts_with("x=\"").then_some(0))?;
            let from = tag[at..].find('"')? + at + 1;
            let x: f64 = tag[from..from + tag[from..].find('"')?].parse().ok()?;
            Some((x, text))
        })
        .collect();
    numbers.sort_by(|a, b| a.0.total_cmp(&b.0));
    assert!(numbers.len() >= 2, "{numbers:?}");
    for w in numbers.windows(2) {
        // 12 px sans-serif digits are about 7 px wide: the centres at least one label and a gap apart.
        let room = 7.0 * (w[0].1.len() + w[1].1.len()) as f64 / 2.0 + 6.0;
        assert!(w[1].0 - w[0].0 >= room, "{w:?} in {numbers:?}");
    }
}

/// The scatter at the page's size (a third of the page: 374 x 480 pixels) over a Slurm log's
/// waits (1 to 1000 s, 3.2 decades over some 200 pixels) labels the powers of ten alone: with
/// 1, 2 and 5 times each, "200", "500" and "1000" ran into one another under the x axis. Wider,
/// the same waits get 1, 2 and 5 times each power again.
#[test]
fn scatter_labels_what_its_width_holds() {
    let xs = [1.0, 40.0, 1000.0];
    let ys = [2.0, 300.0, 900.0];
    let style = scatter::ScatterStyle {
        floor: 1.0,
        x_desc: "A".into(),
        y_desc: "B".into(),
        legend: vec!["user alice".into()],
    };
    let labels = |size| {
        let svg = native::svg(size, |root| {
            scatter::draw(root, &xs, &ys, &[0, 0, 0], &style, "s").map_err(|e| e.to_string())?;
            Ok(())
        })
        .unwrap();
        let mut numbers: Vec<String> = svg_texts(&svg)
            .into_iter()
            .filter(|t| !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()))
            .collect();
        numbers.sort();
        numbers.dedup();
        numbers
    };
    assert_eq!(labels((374, 480)), ["1", "10", "100", "1000"]);
    assert!(labels((1000, 900)).contains(&"500".to_string()));
}

/// On a cluster the diff-Gantt names its y axis as the plain Gantt does (it had no axis name):
/// two nodes of 4 cores, n1 and n2, read "processors of 2 nodes" on both charts.
#[test]
fn diff_gantt_names_its_y_axis_as_the_gantt_does_on_a_cluster() {
    let rows = gantt::NodeRows::named(vec![0, 4], vec!["n1".into(), "n2".into()], 8).unwrap();
    let y_desc = rows.desc();
    assert_eq!(y_desc, "processors of 2 nodes");
    let (a, b) = ([rect(0.0, 50.0, 0, 4)], [rect(25.0, 100.0, 4, 8)]);
    let texts = |y_desc: &str| {
        svg_texts(&diff_svg(
            (&a, &b),
            8,
            100.0,
            ["easy", "slurm", "diff"],
            ["", y_desc],
        ))
    };
    assert!(texts(&y_desc).contains(&y_desc), "{:?}", texts(&y_desc));
    // The plain Gantt of the same cluster: the same name.
    let svg = native::svg((700, 300), |root| {
        gantt::draw_rows(root, &a, 8, &rows, &[], &[], 0.0, 100.0, "gantt")
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap();
    assert!(svg_texts(&svg).contains(&y_desc));
    // None asked: none drawn.
    assert!(!texts("").iter().any(|t| t.starts_with("processors")));
}

/// The diff-Gantt names its time axis as the Gantt does ("time", `TimeAxes::x_desc`; the page
/// draws it through `DiffStyle::x_desc`): the plain Gantt's SVG holds the text "time", and
/// so does the diff-Gantt's when asked; none asked, none drawn.
#[test]
fn diff_gantt_names_its_x_axis_as_the_gantt_does() {
    let rows = gantt::NodeRows::named(vec![0, 4], vec!["n1".into(), "n2".into()], 8).unwrap();
    let (a, b) = ([rect(0.0, 50.0, 0, 4)], [rect(25.0, 100.0, 4, 8)]);
    let svg = native::svg((700, 300), |root| {
        gantt::draw_rows(root, &a, 8, &rows, &[], &[], 0.0, 100.0, "gantt")
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap();
    assert!(svg_texts(&svg).iter().any(|t| t == "time"));
    let texts = |x_desc: &str| {
        svg_texts(&diff_svg(
            (&a, &b),
            8,
            100.0,
            ["easy", "slurm", "diff"],
            [x_desc, &rows.desc()],
        ))
    };
    assert!(
        texts("time").iter().any(|t| t == "time"),
        "{:?}",
        texts("time")
    );
    assert!(!texts("").iter().any(|t| t == "time"));
}
