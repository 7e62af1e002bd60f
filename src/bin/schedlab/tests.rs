//! The CLI's flags against the options schema.

use super::Cli;
use clap::{ArgAction, CommandFactory};
use schedlab::options::{Group, Kind, OPTIONS};

/// Every option of the schema with a CLI flag exists on `run` (and the input and metrics
/// flags on `sweep`, `plot` and `bench` too; the generator's on `generate`) with the schema's default; every input and
/// metrics flag of `run` is in the schema.
#[test]
fn flags_match_the_options_schema() {
    let cli = Cli::command();
    let sub = |name: &str| cli.find_subcommand(name).unwrap().clone();
    let run = sub("run");
    for o in OPTIONS.iter().filter(|o| !o.flag.is_empty()) {
        let long = &o.flag[2..];
        // The generator's options are `generate`'s flags.
        let cmds: &[&str] = if o.group == Group::Generate {
            &["generate"]
        } else {
            &["run", "sweep", "plot", "bench"]
        };
        for &cmd in cmds {
            let c = sub(cmd);
            if cmd != "run" && o.key == "seed" {
                continue; // sweeps run seeds 1..N, bench seed 1
            }
            let arg = c
                .get_arguments()
                .find(|a| a.get_long() == Some(long))
                .unwrap_or_else(|| panic!("{cmd} has no {}", o.flag));
            let defaults: Vec<String> = arg
                .get_default_values()
                .iter()
                .map(|v| v.to_string_lossy().into_owned())
                .collect();
            match o.kind {
                Kind::Bool => {
                    assert!(matches!(arg.get_action(), ArgAction::SetTrue), "{}", o.flag);
                    // A switch turns the option on, or off for --no-...
                    let off_by_flag = o.flag.starts_with("--no-");
                    assert_eq!(o.default == "1", off_by_flag, "{}", o.flag);
                }
                _ if defaults.is_empty() => {
                    // No clap default: the help states the schema's, or there is none.
                    let help = arg.get_help().map(|h| h.to_string()).unwrap_or_default();
                    assert!(
                        o.default.is_empty() || help.contains(&format!("[default: {}]", o.default)),
                        "{}: help must say [default: {}]",
                        o.flag,
                        o.default
                    );
                }
                _ => assert_eq!(defaults.join(","), o.default, "{}", o.flag),
            }
            if let Kind::Choice { values } = o.kind {
                let possible: Vec<String> = arg
                    .get_possible_values()
                    .iter()
                    .map(|v| v.get_name().to_string())
                    .collect();
                assert_eq!(possible, values, "{}", o.flag);
            }
        }
    }
    // The other way: run's options are the schema's, its outputs and the run's own flags.
    let own = [
        "policy",
        "jobs-csv",
        "runs-csv",
        "alloc-csv",
        "json",
        "heatmap-csv",
        "heatmap-bin",
        "sshare",
        "qos",
        "assoc",
        "fidelity",
        "help",
    ];
    for a in run.get_arguments() {
        let Some(long) = a.get_long() else { continue };
        assert!(
            own.contains(&long) || OPTIONS.iter().any(|o| o.flag == format!("--{long}")),
            "--{long} is not in the options schema (src/options.rs)"
        );
    }
}
