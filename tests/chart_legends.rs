//! Every chart's legend takes the one legend style (`charts::legend::LegendStyle`): the same
//! label font, background, border and markers everywhere, so that legends cannot drift apart
//! again (they had: backgrounds at 0.8 and 0.85, labels at 11 and 12 px).

mod common;
use plotters::prelude::*;
use schedlab::charts::legend::LegendStyle;
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

/// What a legend drawn in `style` must show in an SVG: the label font size, the background's
/// opacity and the border's colour.
struct Want {
    font: String,
    alpha: String,
    border: String,
}

fn want(style: &LegendStyle) -> Want {
    let svg = native::svg((200, 50), |root| {
        root.draw(&Text::new("reference", (0, 0), style.font()))
            .map_err(|e| e.to_string())
    })
    .unwrap();
    let c = style.border;
    Want {
        font: font_size(&svg, "reference"),
        alpha: format!("{}", style.background_alpha),
        border: format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2),
    }
}

/// The chart's boxed legend is drawn in the default style: each label in its font, on one
/// white background of its opacity inside one border of its colour, each marker of its size.
fn check_boxed(name: &str, svg: &str, labels: &[&str], bars: bool) {
    let style = LegendStyle::default();
    let w = want(&style);
    for l in labels {
        assert_eq!(font_size(svg, l), w.font, "{name}: label {l:?}");
    }
    let rects = tags(svg, "rect");
    let backgrounds = rects
        .iter()
        .filter(|t| attr(t, "fill") == Some("#FFFFFF") && attr(t, "opacity") != Some("1"))
        .collect::<Vec<_>>();
    assert_eq!(backgrounds.len(), 1, "{name}: one legend background");
    assert_eq!(
        attr(backgrounds[0], "opacity"),
        Some(w.alpha.as_str()),
        "{name}"
    );
    let (x, y) = (attr(backgrounds[0], "x"), attr(backgrounds[0], "y"));
    let border = rects
        .iter()
        .find(|t| attr(t, "x") == x && attr(t, "y") == y && attr(t, "fill") == Some("none"))
        .unwrap_or_else(|| panic!("{name}: no legend border"));
    assert_eq!(attr(border, "stroke"), Some(w.border.as_str()), "{name}");
    if bars {
        let (mw, mh) = (style.marker.0.to_string(), style.marker.1.to_string());
        let markers = rects
            .iter()
            .filter(|t| {
                attr(t, "width") == Some(mw.as_str()) && attr(t, "height") == Some(mh.as_str())
            })
            .count();
        assert!(
            markers >= labels.len(),
            "{name}: {markers} markers of {mw} x {mh}"
        );
    }
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
fn every_boxed_legend_takes_the_one_style() {
    let labels = vec!["alpha".to_string(), "beta".to_string()];
    let names = ["alpha", "beta"];
    let s = render((600, 300), |r| {
        series::draw(r, &step_series(), &labels, 1, "t").map_err(|e| e.to_string())
    });
    check_boxed("series", &s, &names, true);
    let style = binned::BinnedStyle {
        bin: 30.0,
        highlight: None,
        y_desc: "busy".into(),
    };
    let s = render((600, 300), |r| {
        binned::draw(r, &step_series(), &labels, 1, &style, "t").map_err(|e| e.to_string())
    });
    check_boxed("binned", &s, &names, true);
    let dists = vec![
        ("alpha".to_string(), vec![1.0, 10.0, 100.0]),
        ("beta".to_string(), vec![5.0, 50.0]),
    ];
    let s = render((600, 300), |r| {
        cdf::draw(r, &dists, &cdf::CdfStyle::wait(), "t").map_err(|e| e.to_string())
    });
    check_boxed("cdf", &s, &names, true);
    let boxes = vec![
        class_box::boxes(&[1.0, 5.0, 9.0], &[0, 1, 2], 3),
        class_box::boxes(&[2.0, 6.0, 7.0], &[0, 1, 2], 3),
    ];
    let s = render((600, 300), |r| {
        class_box::draw(
            r,
            &class_box::SIZE_CLASSES,
            &labels,
            &boxes,
            1.0,
            "wait",
            "t",
        )
        .map_err(|e| e.to_string())
    });
    check_boxed("class_box", &s, &names, true);
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
    check_boxed("sweep", &s, &names, true);
    let (a, b) = (rects("easy"), rects("fcfs"));
    let s = render((600, 300), |r| {
        diff_gantt::draw(r, &a, &b, 8, 0.0, 200.0, ["alpha", "beta"], "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    check_boxed("diff_gantt", &s, &["only alpha", "only beta", "both"], true);
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
    check_boxed("scatter", &s, &names, false);
    // Its markers are dots as high as the style's markers.
    let r = (LegendStyle::default().marker.1 / 2).to_string();
    assert_eq!(
        tags(&s, "circle")
            .iter()
            .filter(|t| attr(t, "r") == Some(r.as_str()))
            .count(),
        2
    );
}

#[test]
fn the_gantt_side_legend_takes_the_one_style() {
    let rects = rects("easy");
    let s = render((800, 300), |r| {
        gantt::draw(r, &rects, 8, 0.0, 200.0, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    });
    let w = want(&LegendStyle::default());
    for label in ["users", "1"] {
        assert_eq!(font_size(&s, label), w.font, "gantt legend {label:?}");
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
        // Each legend entry's marker is the style's.
        for call in text.split(".legend(").skip(1) {
            assert!(
                call.starts_with("legend.bar(") || call.starts_with("legend.dot("),
                "{name}: a marker of its own"
            );
        }
        if text.contains(".legend(") {
            assert!(text.contains("LegendStyle::default()"), "{name}");
            charts += 1;
        }
    }
    assert_eq!(charts, 7, "the charts with boxed legends");
}
