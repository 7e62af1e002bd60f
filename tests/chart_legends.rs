//! Every chart's legend takes the one legend style (`charts::legend::LegendStyle`): the same
//! label font and swatches everywhere, so that legends cannot drift apart again (they had:
//! backgrounds at 0.8 and 0.85, labels at 11 and 12 px), and sits outside the plot, so that it
//! never covers data (boxed legends over a dozen CDFs hid half of them).

use crate::common;
use plotters::prelude::*;
use schedlab::charts::legend::{Key, LegendStyle};
use schedlab::charts::{binned, cdf, class_box, diff_gantt, gantt, native, scatter, series, sweep};
use schedlab::sweep::Stat;

/// The attributes of the opening tag of each `<kind ...>` element of an SVG.
fn tags<'a>(svg: &'a str, kind: &str) -> Vec<&'a str> {
    svg.split(&format!("<{kind} "))
        .skip(1)
        .map(|t| &t[..t.find('>').unwrap_or(t.len())])
        .collect()
}

fn attr<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
    Some(&tag[at..at + tag[at..].find('"')?])
}

/// The font size of the text element reading exactly `label`.
fn font_size(svg: &str, label: &str) -> String {
    svg.split("<text ")
        .skip(1)
        .find_map(|t| {
            let (tag, body) = t.split_once('>')?;
            let text = &body[..body.find("</text>")?];
            (text.trim() == label)
                .then(|| attr(&format!(" {tag}"), "font-size").map(String::from))?
        })
        .unwrap_or_else(|| panic!("no text {label:?}"))
}

/// The label font size a legend drawn in `style` shows in an SVG.
fn want_font(style: &LegendStyle) -> String {
    let svg = native::svg((200, 50), |root| {
        root.draw(&Text::new("reference", (0, 0), style.font()))
            .map_err(|e| e.to_string())
    })
    .unwrap();
    font_size(&svg, "reference")
}

/// The chart's legend is drawn in the default style outside the plot: each label in its font
/// with a square swatch as high as the text, and no boxed legend (a translucent background)
/// anywhere over the data.
fn check_outside(name: &str, svg: &str, labels: &[&str]) {
    let style = LegendStyle::default();
    let font = want_font(&style);
    for l in labels {
        assert_eq!(font_size(svg, l), font, "{name}: label {l:?}");
    }
    let rects = tags(svg, "rect");
    let boxed = rects
        .iter()
        .filter(|t| attr(t, "fill") == Some("#FFFFFF") && attr(t, "opacity") != Some("1"))
        .count();
    assert_eq!(boxed, 0, "{name}: a boxed legend over the plot");
    let side = style.font_size.to_string();
    let swatches = rects
        .iter()
        .filter(|t| attr(t, "width") == Some(side.as_str()))
        .count();
    assert!(swatches >= labels.len(), "{name}: {swatches} swatches");
}

fn render(
    size: (u32, u32),
    draw: impl FnOnce(&DrawingArea<SVGBackend, plotters::coord::Shift>) -> Result<(), String>,
) -> String {
    native::svg(size, draw).unwrap()
}

fn step_series() -> Vec<Vec<f64>> {
    let a = vec![0.0, 4.0, 1.0, 30.0, 10.0, 0.0, 120.0, 2.0, 0.0];
    let b = vec![0.0, 6.0, 0.0, 60.0, 8.0, 2.0, 120.0, 0.0, 0.0];
    vec![a, b]
}

/// The Gantt rectangles of `spec` on a small hand-made trace.
fn rects(spec: &str) -> Vec<gantt::Rect> {
    let set = common::job_set(8, &[(0, 100, 4, 100), (10, 50, 6, 100), (20, 30, 2, 100)]);
    gantt::rects(&set, &common::run(&set, spec))
}

#[test]
fn every_legend_takes_the_one_style_outside_the_plot() {
    let labels = vec!["alpha".to_string(), "beta".to_string()];
    let keys = Key::list(&labels);
    let names = ["alpha", "beta"];
    let s = render((600, 300), |r| {
        series::draw(r, &step_series(), &keys, 1, "t").map_err(|e| e.to_string())
    });
    check_outside("series", &s, &names);
    let style = binned::BinnedStyle {
        y_desc: "busy".into(),
        ..binned::BinnedStyle::overlaid(30.0)
    };
    let s = render((600, 300), |r| {
        binned::draw(r, &step_series(), &keys, 1, &style, "t").map_err(|e| e.to_string())
    });
    check_outside("binned", &s, &names);
    let dists = vec![
        (keys[0].clone(), vec![1.0, 10.0, 100.0]),
        (keys[1].clone(), vec![5.0, 50.0]),
    ];
    let s = render((600, 300), |r| {
        cdf::draw(r, &dists, &cdf::CdfStyle::wait(), "t").map_err(|e| e.to_string())
    });
    check_outside("cdf", &s, &names);
    let boxes = vec![
        class_box::boxes(&[1.0, 5.0, 9.0], &[0, 1, 2], 3),
        class_box::boxes(&[2.0, 6.0, 7.0], &[0, 1, 2], 3),
    ];
    let s = render((600, 300), |r| {
        class_box::draw(r, &class_box::SIZE_CLASSES, &keys, &boxes, 1.0, "wait", "t")
            .map_err(|e| e.to_string())
    });
    check_outside("class_box", &s, &names);
    let stats = |m: f64| {
        vec![
            Stat {
                mean: m,
                min: m - 1.0,
                max: m + 1.0,
            },
            Stat {
                mean: m + 2.0,
                min: m,
                max: m + 3.0,
            },
        ]
    };
    let lines = vec![
        sweep::SweepLine {
            label: "alpha".into(),
            stats: stats(5.0),
        },
        sweep::SweepLine {
            label: "beta".into(),
            stats: stats(8.0),
        },
    ];
    let values = vec!["0".to_string(), "1".to_string()];
    let s = render((600, 300), |r| {
        sweep::draw(r, &values, &lines, "err", "mbs", "t").map_err(|e| e.to_string())
    });
    check_outside("sweep", &s, &names);
    let (a, b) = (rects("easy"), rects("fcfs"));
    let s = render((600, 300), |r| {
        diff_gantt::draw(
            r,
            &a,
            &b,
            8,
            0.0,
            200.0,
            &diff_gantt::DiffStyle {
                labels: ["alpha", "beta"],
                title: "t",
                x_desc: "",
                y_desc: "",
            },
        )
        .map(|_| ())
        .map_err(|e| e.to_string())
    });
    check_outside("diff_gantt", &s, &["only alpha", "only beta", "both"]);
    let style = scatter::ScatterStyle {
        floor: 1.0,
        x_desc: "A".into(),
        y_desc: "B".into(),
        legend: labels.clone(),
    };
    let s = render((500, 400), |r| {
        scatter::draw(r, &[10.0, 100.0], &[20.0, 5.0], &[0, 1], &style, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    check_outside("scatter", &s, &names);
}

/// The legend laid out beside a wide chart is a column on the right; on a narrow one, rows above
/// the plot; either way no entry's text starts inside the area left for the plot.
#[test]
fn the_legend_leaves_the_plot_alone() {
    let labels: Vec<String> = ["fcfs", "easy", "conservative[queue=sjf]", "pv-easy"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let keys = Key::list(&labels);
    for (size, right) in [((900, 300), true), ((360, 300), false)] {
        let mut plot = None;
        let svg = render(size, |r| {
            let p = LegendStyle::default()
                .outside(r, &keys)
                .map_err(|e| e.to_string())?;
            plot = Some(p.get_pixel_range());
            Ok(())
        });
        let (xs, ys) = plot.unwrap();
        for l in &labels {
            let tag = svg
                .split("<text ")
                .skip(1)
                .find(|t| {
                    t.split_once('>')
                        .unwrap()
                        .1
                        .trim_start()
                        .starts_with(l.as_str())
                })
                .unwrap_or_else(|| panic!("no label {l}"));
            let x: i32 = attr(&format!(" {tag}"), "x").unwrap().parse().unwrap();
            let y: i32 = attr(&format!(" {tag}"), "y").unwrap().parse().unwrap();
            assert!(
                !(xs.contains(&x) && ys.contains(&y)),
                "{size:?}: {l} at ({x}, {y}) in the plot {xs:?} x {ys:?}"
            );
            if right {
                assert!(x >= xs.end, "{size:?}: {l} not on the right");
            } else {
                assert!(y < ys.start, "{size:?}: {l} not above");
            }
        }
        assert!(xs.end - xs.start >= size.0 as i32 * 6 / 10 || !right);
    }
}

#[test]
fn the_gantt_side_legend_takes_the_one_style() {
    let rects = rects("easy");
    let s = render((800, 300), |r| {
        gantt::draw(r, &rects, 8, 0.0, 200.0, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let font = want_font(&LegendStyle::default());
    for label in ["users", "1"] {
        assert_eq!(font_size(&s, label), font, "gantt legend {label:?}");
    }
}

#[test]
fn no_chart_configures_a_legend_by_hand() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/charts");
    let mut charts = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if name == "legend.rs" {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        for by_hand in [
            "configure_series_labels",
            "label_font(",
            "background_style(",
            "border_style(",
        ] {
            assert!(
                !text.contains(by_hand),
                "{name}: {by_hand} outside legend.rs"
            );
        }
        assert!(
            !text.contains(".legend("),
            "{name}: a legend inside the plot"
        );
        if text.contains("outside(") || text.contains("framed(") {
            charts += 1;
        }
    }
    assert_eq!(
        charts, 9,
        "the charts (and the time axes) with a legend outside the plot"
    );
}
