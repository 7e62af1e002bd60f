//! `schedlab plot` and `bench` with `--slurm-conf` and `--sshare`: the `slurm` policy drawn or
//! timed is the one `schedlab run` reports, with the site's scheduler parameters and shares.

use crate::common;
use common::{schedlab, tmpdir};

/// The Slurm demo's run (gpu-3/run1): its sacct log, slurm.conf and sshare file.
const DEMO: (&str, &str, &str) = (
    "tests/data/slurm/gpu-3/run1/sacct.txt",
    "tests/data/slurm/gpu-3/run1/slurm.conf",
    "tests/data/slurm/gpu-3/run1/sshare-start.txt",
);

/// The `slurm` policy as `run --json` reports it on `sacct` with the flags `site`.
fn slurm_as_run(sacct: &str, site: &[&str]) -> String {
    let (ok, json, err) = schedlab(&[&["run", sacct, "-p", "slurm", "--json"][..], site].concat());
    assert!(ok, "{err}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    report[0]["policy"].as_str().unwrap().to_string()
}

/// The Slurm demo's run (gpu-3/run1). `plot --chart metric --metric wait.mean` draws `slurm`
/// as it ran with the site: the canonical spec that `run` reports, naming the slurm.conf's keys
/// (`slurm[PriorityWeightAge=5000,...]`), gives the same bar on a slurm.conf of the same nodes
/// alone (the same rectangles). `plot` once ignored the site: it drew `slurm` on Slurm's
/// defaults, another schedule. The bar is labelled as the user wrote the policy (`slurm`): the
/// whole spec, hundreds of characters, ran off the chart.
#[test]
fn plot_runs_slurm_with_the_site_as_run_does() {
    let (sacct, conf, sshare) = DEMO;
    let site = ["--slurm-conf", conf, "--sshare", sshare];
    let spec = slurm_as_run(sacct, &site);
    assert!(
        spec.starts_with("slurm[") && spec.contains("PriorityWeightFairshare=10000"),
        "{spec}"
    );
    let d = tmpdir("plot", "site");
    let svg = d.join("wait.svg");
    let svg = svg.to_str().unwrap();
    let args = [
        "plot",
        sacct,
        "-p",
        "slurm",
        "--chart",
        "metric",
        "--metric",
        "wait.mean",
        "--out",
        svg,
    ];
    let (ok, _, err) = schedlab(&[&args[..], &site[..]].concat());
    assert!(ok, "{err}");
    let drawn = std::fs::read_to_string(svg).unwrap();
    assert!(
        drawn.lines().any(|l| l.trim() == "slurm") && !drawn.contains("PriorityWeightAge"),
        "the bar is not labelled as written: {drawn:.2000}"
    );
    let plot = |policy: &str, with: &[&str], out: &str| {
        let args = [
            "plot",
            sacct,
            "-p",
            policy,
            "-p",
            "easy",
            "--chart",
            "metric",
            "--metric",
            "wait.mean",
            "--out",
            out,
        ];
        let (ok, _, err) = schedlab(&[&args[..], with].concat());
        assert!(ok, "{err}");
        bar_ratio(&std::fs::read_to_string(out).unwrap())
    };
    let (a, b) = (d.join("a.svg"), d.join("b.svg"));
    let by_conf = plot("slurm", &["--slurm-conf", conf], a.to_str().unwrap());
    let (ok, json, err) = schedlab(&["run", sacct, "-p", "slurm", "--json", "--slurm-conf", conf]);
    assert!(ok, "{err}");
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let spec = report[0]["policy"].as_str().unwrap().to_string();
    // The same nodes with no scheduler parameters: the spec alone sets them.
    let text = std::fs::read_to_string(conf).unwrap();
    let nodes: String = (text.lines())
        .filter(|l| l.starts_with("NodeName") || l.starts_with("PartitionName"))
        .map(|l| format!("{l}\n"))
        .collect();
    let bare = d.join("nodes.conf");
    std::fs::write(&bare, nodes).unwrap();
    let by_spec = plot(
        &spec,
        &["--slurm-conf", bare.to_str().unwrap()],
        b.to_str().unwrap(),
    );
    // The bars' lengths (`slurm` over `easy`: the labels differ, `slurm` as written and the
    // spec in full, and with them the bars' direction), up to their whole pixels (gpu-3/run1:
    // 153.1 / 81.5 s = 1.8785, drawn 397 / 211 px upright and 577 / 307 px lying: 1.8815
    // and 1.8795).
    let near = |a: (f64, f64), b: (f64, f64)| (a.0 - b.0).abs() <= a.1 + b.1;
    assert!(
        near(by_conf, by_spec),
        "{spec}: the slurm.conf's chart ({by_conf:?}) is not its spec's ({by_spec:?})"
    );
    // The test can fail: `slurm` on Slurm's defaults, the same nodes, draws another bar.
    let c = d.join("c.svg");
    let by_default = plot(
        "slurm",
        &["--slurm-conf", bare.to_str().unwrap()],
        c.to_str().unwrap(),
    );
    assert!(!near(by_conf, by_default), "{by_conf:?} {by_default:?}");
}

/// The first bar's length over the second's, from an SVG of two bars (vertical: their heights
/// differ; horizontal: their widths), and how far whole pixels may put it off.
fn bar_ratio(svg: &str) -> (f64, f64) {
    let colour =
        |c: plotters::style::RGBColor| format!("fill=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
    let size = |fill: &str| -> (f64, f64) {
        let r = svg.split("<rect").find(|r| r.contains(fill)).expect(fill);
        let attr = |name: &str| -> f64 {
            let at = r.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
            r[at..].split('"').next().unwrap().parse().unwrap()
        };
        (attr("width"), attr("height"))
    };
    let palette = schedlab::charts::palette::COLOURS;
    let (a, b) = (size(&colour(palette[0])), size(&colour(palette[1])));
    let (a, b) = match (a.0 - b.0).abs() < 0.5 {
        true => (a.1, b.1),
        false => (a.0, b.0),
    };
    // Each length is whole pixels, up to one off the figure's: the ratio up to this far.
    (a / b, a / b * (1.0 / a + 1.0 / b))
}

/// `bench` times the run `run` makes: on the Slurm demo's run (gpu-3/run1) with its site, the
/// `slurm` row is named `slurm`, the spec as given (the canonical spec, some 370 characters, put
/// the table's columns out of line), and the line after its rows says it runs as the spec
/// `run --json` reports with the site (the slurm.conf's keys in it); the whole-run row and the
/// memory line name it `slurm` too. `bench` took no `--sshare` and ran `slurm` on Slurm's
/// defaults, another schedule than `run`'s.
#[test]
fn bench_runs_slurm_with_the_site_as_run_does() {
    let (sacct, conf, sshare) = DEMO;
    let site = ["--slurm-conf", conf, "--sshare", sshare];
    let spec = slurm_as_run(sacct, &site);
    assert!(spec.contains("PriorityWeightFairshare=10000"), "{spec}");
    let (ok, out, err) = schedlab(
        &[
            &["bench", sacct, "-p", "slurm", "--repeat", "1"][..],
            &site[..],
        ]
        .concat(),
    );
    assert!(ok, "{err}");
    let steps: Vec<&str> = out
        .lines()
        .filter_map(|l| l.split_whitespace().nth(1))
        .collect();
    assert!(steps.contains(&"slurm"), "no row of slurm: {out}");
    assert!(!steps.contains(&spec.as_str()), "{out}");
    assert!(
        out.contains(&format!("slurm runs as {spec}\n")),
        "no canonical spec of {spec}: {out}"
    );
    assert!(out.contains("memory with one slurm run:"), "{out}");
    // Every row's columns line up: the jobs column ends at the same place on each row.
    let header = out.lines().find(|l| l.starts_with("trace ")).unwrap();
    let end = header.find("jobs").unwrap() + "jobs".len();
    for l in out
        .lines()
        .filter(|l| l.contains(" + metrics") || l.contains(" slurm  "))
    {
        assert_eq!(l.get(end - 2..end), Some("60"), "{l}");
    }
}

/// A bad value in the slurm.conf the `slurm` policy reads is said at the file's line, under the
/// key as the file writes it, by every command that runs `slurm` with the site (`run`,
/// `replay`, `sweep`). Before, `run` said `policy "slurm[KillWait=5,...,bf_window=abc,...]":
/// bf_window=abc: ...`: a spec of 300 characters the admin never wrote, and neither the file
/// nor its line 32. A policy that does not read the value runs; a spec that gives the key
/// replaces the bad value.
#[test]
fn a_bad_slurm_conf_value_names_its_file_and_line() {
    let (sacct, conf, _) = DEMO;
    let d = tmpdir("site", "badconf");
    let bad = d.join("slurm.conf");
    let text = std::fs::read_to_string(conf).unwrap();
    std::fs::write(&bad, text.replace("bf_window=30,", "bf_window=abc,")).unwrap();
    let bad = bad.to_str().unwrap();
    let expected = format!(
        "{bad}:32: SchedulerParameters, bf_window: \"abc\" is not a whole number from 1 to 43200 (minutes)"
    );
    for args in [
        &["run", sacct, "-p", "slurm"][..],
        &["replay", sacct, "-p", "slurm"],
        &["sweep", sacct, "-p", "slurm", "--vary", "bf_interval=5,10"],
    ] {
        let (ok, _, err) = schedlab(&[args, &["--slurm-conf", bad]].concat());
        assert!(!ok, "{args:?}");
        assert!(err.contains(&expected), "{args:?}: {err}");
        assert!(!err.contains("slurm[KillWait"), "{args:?}: {err}");
    }
    let (_, _, err) = schedlab(&["run", sacct, "-p", "slurm", "--slurm-conf", bad]);
    assert!(
        err.contains(&format!("policy \"slurm\": {expected}")),
        "{err}"
    );
    for policy in ["easy", "slurm[bf_window=30]"] {
        let (ok, _, err) = schedlab(&["run", sacct, "-p", policy, "--slurm-conf", bad]);
        assert!(ok, "{policy}: {err}");
    }
}

/// `schedlab replay` without a debug log reads sacct's `Priority` column (docs/slurm.md,
/// "sacct's Priority: the periods' phase and the ends' sides"). On gpu-15/run1,
/// `calc_phase=read` reads 58.5 (the limit checks' second 28, the half minute and the side
/// with the most recorded priorities: 147 of 150) and the note says so; the ends' sides read
/// tell job 19's (1 of the 11 ends on a period's second). A spec's own `calc_phase` wins;
/// `--no-priorities` reads neither.
#[test]
fn replay_reads_the_periods_phase_and_the_ends_sides_from_sacct_priority() {
    let d = "tests/data/slurm/gpu-15/run1";
    let (sacct, conf, sshare) = (
        format!("{d}/sacct.txt"),
        format!("{d}/slurm.conf"),
        format!("{d}/sshare-start.txt"),
    );
    let run = |spec: &str, more: &[&str]| {
        let args = [
            "replay",
            &sacct,
            "--slurm-conf",
            &conf,
            "--sshare",
            &sshare,
            "-p",
            spec,
        ];
        let (ok, out, err) = schedlab(&[&args[..], more].concat());
        assert!(ok, "{spec}: {err}");
        (out, err)
    };
    let sides = "the log's Priority column tells the side of 1 of the 11 job ends";
    let (out, err) = run("slurm[calc_phase=read]", &[]);
    assert!(
        err.contains(
            "calc_phase=58.5 (the limit checks' second, the half minute the log's Priority \
             column tells: of its 150 recorded priorities the model gives 59 at 28, 27 at \
             28.5, 112 at 58, 147 at 58.5)"
        ),
        "{err}"
    );
    assert!(err.contains(sides), "{err}");
    assert!(out.contains(",calc_phase=58.5,"), "{out}");
    let (out, err) = run("slurm[calc_phase=58]", &[]);
    assert!(!err.contains("half minute"), "{err}");
    assert!(
        err.contains(sides) && out.contains(",calc_phase=58,"),
        "{err}"
    );
    let (out, err) = run("slurm[calc_phase=read]", &["--no-priorities"]);
    assert!(!err.contains("Priority column"), "{err}");
    assert!(out.contains(",calc_phase=read,"), "{out}");
}
