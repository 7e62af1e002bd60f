//! Chart functions rendered to SVG strings on hand-made schedules.

use crate::common;
use common::{job_set, run, svg_texts as texts};
use schedlab::charts::legend::Key;
use schedlab::charts::{bars, gantt, native, palette, series};

/// Rectangles filled with a user colour (jobs and legend swatches).
fn coloured_rects(svg: &str) -> usize {
    let fills: Vec<String> = palette::COLOURS
        .iter()
        .chain([&palette::OTHER])
        .map(|c| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2))
        .collect();
    svg.split("<rect")
        .skip(1)
        .filter(|r| fills.iter().any(|f| r.contains(f.as_str())))
        .count()
}

fn has_text(svg: &str, label: &str) -> bool {
    texts(svg).iter().any(|t| t == label)
}

fn gantt_svg(rects: &[gantt::Rect], procs: u32, t0: f64, t1: f64) -> String {
    native::svg((800, 400), |root| {
        let area = gantt::draw(root, rects, procs, t0, t1, "test").map_err(|e| e.to_string())?;
        // The plotting area lies inside the drawing, left of the legend, below the caption.
        assert!(
            area[0] > 40
                && area[1] > 15
                && area[2] < 700
                && area[3] < 380
                && area[2] > area[0] + 400,
            "{area:?}"
        );
        Ok(())
    })
    .unwrap()
}

#[test]
fn gantt_draws_one_rectangle_per_job_in_view_and_none_outside() {
    // EASY on the hole example: J1 [0,100) 0-5, J3 [2,52) 6-9, J4 [52,252) 6-7, and J2
    // [100,150) on 0-5 and 8-9 (two rectangles). Users cycle 1, 2, 3, 1: three legend swatches.
    let set = job_set(
        10,
        &[
            (0, 100, 6, 100),
            (1, 50, 8, 50),
            (2, 50, 4, 50),
            (3, 200, 2, 200),
        ],
    );
    let s = run(&set, "easy");
    let rects = gantt::rects(&set, &s);
    assert_eq!(rects.len(), 5);
    assert_eq!(gantt::unflatten(&gantt::flatten(&rects)), rects);
    let legend = 3;
    assert_eq!(
        coloured_rects(&gantt_svg(&rects, 10, 0.0, 300.0)),
        5 + legend
    );
    // [60, 120): J1, J2 (2) and J4 intersect it; J3 (ended at 52) does not.
    assert_eq!(
        coloured_rects(&gantt_svg(&rects, 10, 60.0, 120.0)),
        4 + legend
    );
    // [260, 400): nothing runs.
    let empty = gantt_svg(&rects, 10, 260.0, 400.0);
    assert_eq!(coloured_rects(&empty), legend);
    // The axes show the window: its start and end as labels, and the processor range.
    let all = gantt_svg(&rects, 10, 0.0, 300.0);
    assert!(
        has_text(&all, "0") && has_text(&all, "5m"),
        "x axis labels: {:?}",
        texts(&all)
    );
    assert!(
        has_text(&all, "10") && !has_text(&all, "12"),
        "y axis should end at 10: {:?}",
        texts(&all)
    );
    assert!(
        has_text(&empty, "4m 30s") && !has_text(&empty, "4m 15s") && has_text(&empty, "6m 30s"),
        "{:?}",
        texts(&empty)
    );
}

#[test]
fn gantt_level_of_detail_merges_subpixel_rectangles() {
    // 10,000 one-second jobs on one processor over 10,000 s: on ~640 pixel columns they merge
    // into one run of pixels.
    let rects: Vec<gantt::Rect> = (0..10_000)
        .map(|i| gantt::Rect {
            start: f64::from(i),
            end: f64::from(i) + 1.0,
            lo: 0,
            hi: 1,
            user: 1,
            job: i as u32,
            preempted: false,
            lane: false,
        })
        .collect();
    let n = coloured_rects(&gantt_svg(&rects, 4, 0.0, 10_000.0)) - 1;
    assert_eq!(n, 1, "{n} rectangles drawn for 10,000 sub-pixel jobs");
    // Two users alternating per second: still at most a run per colour and column.
    let mixed: Vec<gantt::Rect> = rects
        .iter()
        .map(|r| gantt::Rect {
            user: i64::from(r.job % 2),
            ..*r
        })
        .collect();
    let n = coloured_rects(&gantt_svg(&mixed, 4, 0.0, 10_000.0)) - 2;
    assert!(
        n <= 2 * 640,
        "{n} rectangles drawn for 10,000 sub-pixel jobs of two users"
    );
    // Zoomed to 100 s, every job is wider than a pixel: all 100 drawn.
    assert_eq!(coloured_rects(&gantt_svg(&rects, 4, 0.0, 100.0)) - 1, 100);
}

/// Fill colours of the rectangles of an SVG, with whether each is outlined (stroke only).
fn rect_fills(svg: &str) -> Vec<String> {
    svg.split("<rect")
        .skip(1)
        .filter_map(|r| {
            let at = r.find("fill=\"#")? + 6;
            Some(r[at..at + 7].to_string())
        })
        .collect()
}

fn hex(c: plotters::style::RGBColor) -> String {
    format!("#{:02X}{:02X}{:02X}", c.0, c.1, c.2)
}

#[test]
fn gantt_draws_preempted_attempts_lighter_and_outlined_with_a_legend_entry() {
    // PV-EASY (tests/policy_pv_easy.rs): J3 (4 procs) runs [2, 100) on 6-9, is preempted for J2 and
    // restarts [150, 350). Users: J1 1, J2 2, J3 3.
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 200, 4, 200)]);
    let s = run(&set, "pv-easy[predictor=user]");
    assert_eq!(s.preempted_runs.len(), 1);
    let rects = gantt::rects(&set, &s);
    let killed: Vec<_> = rects.iter().filter(|r| r.preempted).collect();
    assert_eq!(killed.len(), 1);
    assert_eq!(
        (
            killed[0].start,
            killed[0].end,
            killed[0].lo,
            killed[0].hi,
            killed[0].job
        ),
        (2.0, 100.0, 6, 10, 2)
    );
    // The kind survives the flat form the page exchanges.
    let flat = gantt::flatten(&rects);
    assert_eq!(flat.len(), rects.len() * gantt::RECT_FIELDS);
    assert_eq!(gantt::unflatten(&flat), rects);
    let svg = gantt_svg(&rects, 10, 0.0, 400.0);
    assert!(has_text(&svg, gantt::PREEMPTED_LABEL), "{:?}", texts(&svg));
    // J3's user colour, full for the final attempt and lighter for the killed one.
    let users = palette::UserColours::new(
        rects
            .iter()
            .map(|r| (r.user, (r.end - r.start) * f64::from(r.hi - r.lo))),
    );
    let full = hex(users.of(set.jobs[2].user));
    let light = hex(gantt::preempted_fill(users.of(set.jobs[2].user)));
    assert_ne!(full, light);
    let fills = rect_fills(&svg);
    // Full: the final attempt and the legend swatch; light: the killed attempt only.
    assert_eq!(fills.iter().filter(|f| **f == full).count(), 2, "{fills:?}");
    assert_eq!(
        fills.iter().filter(|f| **f == light).count(),
        1,
        "{fills:?}"
    );
    // Outlined in the dark outline colour: the attempt and the legend's swatch.
    let outline = format!("stroke=\"{}\"", hex(gantt::PREEMPTED_OUTLINE));
    assert_eq!(svg.matches(outline.as_str()).count(), 2, "{svg}");
    // EASY preempts nothing: no legend entry, no outline.
    let easy = gantt::rects(&set, &run(&set, "easy"));
    assert!(easy.iter().all(|r| !r.preempted));
    let svg = gantt_svg(&easy, 10, 0.0, 400.0);
    assert!(!has_text(&svg, gantt::PREEMPTED_LABEL));
    assert!(!svg.contains(outline.as_str()));
}

#[test]
fn series_and_bars_render() {
    let set = job_set(10, &[(0, 100, 6, 100), (1, 50, 8, 50), (2, 50, 4, 50)]);
    let a = run(&set, "easy");
    let b = run(&set, "fcfs");
    let pts = series::points(&a);
    // EASY: at 0 J1 runs (6 busy), at 1 J2 waits, at 2 J3 starts (10 busy, 1 queued) ...
    assert_eq!(&pts[..9], &[0.0, 6.0, 0.0, 1.0, 6.0, 1.0, 2.0, 10.0, 1.0]);
    let labels = vec!["easy".to_string(), "fcfs".to_string()];
    let svg = native::svg((600, 300), |root| {
        series::draw(
            root,
            &[pts.clone(), series::points(&b)],
            &Key::list(&labels),
            1,
            "busy",
        )
        .map_err(|e| e.to_string())
    })
    .unwrap();
    assert!(
        has_text(&svg, "easy") && has_text(&svg, "fcfs") && svg.matches("<polyline").count() >= 2
    );
    let svg = native::svg((600, 300), |root| {
        bars::draw(root, &Key::list(&labels), &[3.0, 7.5], "wait").map_err(|e| e.to_string())
    })
    .unwrap();
    assert_eq!(coloured_rects(&svg), 2);
}

/// The (x, width) of each rectangle filled with a user colour.
fn coloured_boxes(svg: &str) -> Vec<(f64, f64)> {
    let first = palette::COLOURS[0];
    let fill = format!("fill=\"#{:02X}{:02X}{:02X}\"", first.0, first.1, first.2);
    let attr = |r: &str, name: &str| -> f64 {
        let at = r.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
        r[at..].split('"').next().unwrap().parse().unwrap()
    };
    svg.split("<rect")
        .skip(1)
        .filter(|r| r.contains(fill.as_str()))
        .map(|r| (attr(r, "x"), attr(r, "width")))
        .collect()
}

#[test]
fn one_policy_gets_a_column_in_the_middle() {
    // One policy (`plot --chart wait -p easy`, or the page with one policy) had a column of
    // width -24 px at the axis: its axis of one segment (0..0) had no width. Now the column
    // spans the middle 80% of the plot: on 600 px, 56 px of value labels and margins, it is
    // well over 300 px wide and starts past 100 px.
    let svg = native::svg((600, 300), |root| {
        bars::draw(root, &Key::list(&["easy".to_string()]), &[42.0], "wait")
            .map_err(|e| e.to_string())
    })
    .unwrap();
    let boxes = coloured_boxes(&svg);
    assert_eq!(boxes.len(), 1, "{svg:.1500}");
    let (x, w) = boxes[0];
    assert!(w > 300.0 && x > 100.0, "column at {x} of width {w}");
    assert!(has_text(&svg, "easy"));
}

#[test]
fn the_gantt_chart_draws_the_same_svg_every_time() {
    // Its merged runs were once collected from a HashMap: the SVG's element order then changed
    // from one call to the next.
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
    let rects = gantt::rects(&set, &run(&set, "easy"));
    let draw = || {
        native::svg((700, 300), |root| {
            gantt::draw(root, &rects, 10, 0.0, 500.0, "easy")
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap()
    };
    let first = draw();
    for _ in 0..20 {
        assert_eq!(draw(), first);
    }
}

/// Time ticks fall on round steps and read in days, hours and minutes, like the page's
/// durations: a two-year span in steps of days, a zoomed day in hours, an hour in minutes.
#[test]
fn time_ticks_are_round_and_read_in_days_hours_minutes() {
    use schedlab::charts::time_axes::{ticks, time_text};
    let (ts, step) = ticks(0.0, 720.0 * 86400.0, 8);
    assert_eq!(step, 100.0 * 86400.0);
    assert_eq!(ts.len(), 8);
    let labels: Vec<String> = ts.iter().map(|&t| time_text(t, step)).collect();
    assert_eq!(labels[..3], ["0", "100d", "200d"]);
    // A window inside day 359: hours, with the day.
    let (ts, step) = ticks(359.0 * 86400.0 + 1000.0, 360.0 * 86400.0, 6);
    assert_eq!(step, 6.0 * 3600.0);
    assert_eq!(time_text(ts[0], step), "359d 6h");
    assert!(ts.iter().all(|t| (t / step).fract() == 0.0));
    let (ts, step) = ticks(3600.0, 7200.0, 5);
    assert_eq!(step, 900.0);
    assert_eq!(
        ts.iter().map(|&t| time_text(t, step)).collect::<Vec<_>>(),
        ["1h", "1h 15m", "1h 30m", "1h 45m", "2h"]
    );
    assert_eq!(time_text(90.0, 1.0), "1m 30s");
}

/// The Gantt chart's time labels are round ticks that do not touch, and the axis name sits
/// below them, not on the middle one.
#[test]
fn the_gantt_time_axis_has_room_for_its_labels() {
    let set = job_set(
        10,
        &[(0, 100_000, 6, 100_000), (50_000, 400_000, 4, 400_000)],
    );
    let rects = gantt::rects(&set, &run(&set, "easy"));
    let svg = native::svg((500, 300), |root| {
        gantt::draw(root, &rects, 10, 0.0, 450_000.0, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap();
    // (x, y, text) of every text element.
    let texts: Vec<(f64, f64, String)> = svg
        .split("<text ")
        .skip(1)
        .filter_map(|t| {
            let (tag, body) = t.split_once('>')?;
            let tag = format!(" {tag}");
            let num = |k: &str| -> Option<f64> {
                let at = tag.find(&format!(" {k}=\""))? + k.len() + 3;
                tag[at..at + tag[at..].find('"')?].parse().ok()
            };
            Some((
                num("x")?,
                num("y")?,
                body[..body.find("</text>")?].trim().to_string(),
            ))
        })
        .collect();
    let desc = texts.iter().find(|t| t.2 == "time").expect("the axis name");
    let day = texts.iter().find(|t| t.2 == "1d").expect("a tick at 1d");
    let ticks: Vec<&(f64, f64, String)> = texts.iter().filter(|t| t.1 == day.1).collect();
    assert!(ticks.len() >= 3, "{ticks:?} of {texts:?}");
    for t in &ticks {
        assert!(
            desc.1 >= t.1 + 12.0,
            "the axis name at y {} on the tick {t:?}",
            desc.1
        );
    }
    // Neighbouring labels at least 30 px apart (their centres).
    for w in ticks.windows(2) {
        assert!(w[1].0 - w[0].0 >= 30.0, "{w:?}");
    }
    let names: Vec<&str> = ticks.iter().map(|t| t.2.as_str()).collect();
    assert_eq!(names, ["0", "1d", "2d", "3d", "4d", "5d"]);
}

/// A Gantt chart of `rows` over 32 processors: its SVG.
fn cluster_gantt(rows: &gantt::NodeRows, procs: u32) -> String {
    let rects = [gantt::Rect {
        start: 0.0,
        end: 50.0,
        lo: 0,
        hi: 12,
        user: 1,
        job: 0,
        preempted: false,
        lane: false,
    }];
    native::svg((800, 400), |root| {
        gantt::draw_rows(root, &rects, procs, rows, &[], &[], 0.0, 100.0, "t")
            .map(|_| ())
            .map_err(|e| e.to_string())
    })
    .unwrap()
}

#[test]
fn a_clusters_gantt_shows_its_nodes() {
    use schedlab::cluster::{Cluster, Layout};
    // Two nodes of 8 cores and one of 16: lines at processors 8 and 16, the names on the axis
    // in place of the processor numbers.
    let c = Cluster::from_compact("1/a[1-2]:c8:m0/b1:c16:m0/p=all:ALL:default").unwrap();
    let rows = gantt::NodeRows::of_layout(&Layout::new(&c).unwrap());
    assert_eq!(rows.first, [0, 8, 16]);
    let (plain, nodes) = (
        cluster_gantt(&gantt::NodeRows::default(), 32),
        cluster_gantt(&rows, 32),
    );
    // The lines between nodes, in their grey.
    let lines = |s: &str| s.matches("stroke=\"#969696\"").count();
    assert_eq!(lines(&plain), 0);
    assert_eq!(lines(&nodes), 2);
    let t = texts(&nodes);
    for want in ["a1", "a2", "b1", "processors of 3 nodes"] {
        assert!(t.iter().any(|x| x == want), "{want}: {t:?}");
    }
    assert!(t.iter().all(|x| x != "16"), "{t:?}");
    assert!(texts(&plain).iter().any(|x| x == "processors"));
    // 1,000 one-core nodes in about 340 pixels: lines at least 3 pixels apart (about 110 of
    // them), no name fits, the processor numbers stay.
    let c = Cluster::from_compact("1/n[1-1000]:c1:m0/p=all:ALL:default").unwrap();
    let dense = cluster_gantt(&gantt::NodeRows::of_layout(&Layout::new(&c).unwrap()), 1000);
    let n = lines(&dense);
    assert!((60..=130).contains(&n), "{n} lines");
    let t = texts(&dense);
    assert!(t.iter().all(|x| !x.starts_with('n')), "{t:?}");
    assert!(t.iter().any(|x| x == "1000" || x == "800"), "{t:?}");
}

#[test]
fn a_gpu_clusters_gantt_shows_its_gpus_and_gpu_jobs_darker() {
    use schedlab::cluster::{Cluster, Layout, Need, Placement};
    // A CPU node of 8 cores, then a node of 8 cores with 4 GPUs: job 0 (user 1) holds CPU cores
    // only, job 1 (user 2) asks for 2 GPUs on the GPU node.
    let c = Cluster::from_compact("1/c1:c8:m0/g1:c8:m0:g4/p=all:ALL:default").unwrap();
    let layout = Layout::new(&c).unwrap();
    let idle = schedlab::cluster::Free::all(&layout);
    let mut p = Placement {
        layout,
        needs: vec![Need::default(), Need::default()],
        never: Vec::new(),
        absent: Vec::new(),
        idle,
        lists: Vec::new(),
    };
    p.needs[1].gpus = 2;
    let rows = gantt::NodeRows::of_placement(&p);
    assert_eq!(rows.gpus, [0, 4]);
    assert_eq!(rows.gpu_jobs, [1]);
    assert!(rows.uses_gpus(1) && !rows.uses_gpus(0));
    assert_eq!(rows.desc(), "processors of 2 nodes (4 GPUs)");
    let rect = |job: u32, user: i64, lo: u32, hi: u32| gantt::Rect {
        start: 0.0,
        end: 50.0,
        lo,
        hi,
        user,
        job,
        preempted: false,
        lane: false,
    };
    let rects = [rect(0, 1, 0, 4), rect(1, 2, 8, 10)];
    let draw = |rows: &gantt::NodeRows| {
        native::svg((800, 400), |root| {
            gantt::draw_rows(root, &rects, 16, rows, &[], &[], 0.0, 100.0, "t")
                .map(|_| ())
                .map_err(|e| e.to_string())
        })
        .unwrap()
    };
    let svg = draw(&rows);
    // Users 1 and 2 weigh the same (4 and 2 cores over 50 s: user 1 first): their colours are
    // the palette's first two; user 2's job is drawn in the darker shade, user 1's as it is.
    let hex = |c: plotters::style::RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let (one, two) = (palette::COLOURS[0], palette::COLOURS[1]);
    assert!(svg.contains(&hex(one)), "user 1 as it is");
    assert!(svg.contains(&hex(gantt::gpu_fill(two))), "user 2 darker");
    assert!(texts(&svg).iter().any(|t| t == gantt::GPU_LABEL));
    assert!(texts(&svg)
        .iter()
        .any(|t| t == "processors of 2 nodes (4 GPUs)"));
    // Without GPU jobs: no darker shade, no legend entry.
    let plain = draw(&gantt::NodeRows::of_layout(&p.layout));
    assert!(!plain.contains(&hex(gantt::gpu_fill(two))));
    assert!(plain.contains(&hex(two)));
    assert!(texts(&plain).iter().all(|t| t != gantt::GPU_LABEL));
    // The page's form: counts per node and job indices, checked.
    let named = |gpus: Vec<u32>| {
        gantt::NodeRows::named(vec![0, 8], vec!["c1".into(), "g1".into()], 16)
            .and_then(|r| r.with_gpus(gpus, vec![1, 1]))
    };
    assert_eq!(named(vec![0, 4]).unwrap().gpu_jobs, [1]);
    assert!(named(vec![4]).is_err());
}
