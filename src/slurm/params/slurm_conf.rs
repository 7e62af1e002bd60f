//! The reading of a slurm.conf into the `slurm` policy's parameters: which of its keys, and
//! which `SchedulerParameters` options, name a parameter ([`key_name`], [`option_name`]), and
//! the (Slurm name, value) pairs they set ([`conf_pairs`]), which [`super::SlurmParams::set`]
//! then reads as a spec's keys.

use super::NAMES;

/// The parameters a slurm.conf sets, as (Slurm name, value) pairs in [`NAMES`] spelling:
/// its keys matched without regard to case, `SchedulerParameters` split into its options (a
/// bare `bf_continue` is `yes`), the default partition's `PriorityJobFactor` given by the
/// caller. Keys the model does not read are left out.
pub fn conf_pairs<'a>(
    entries: impl Iterator<Item = (&'a str, &'a str)>,
) -> Vec<(&'static str, String)> {
    let mut out: Vec<(&'static str, String)> = Vec::new();
    let mut put = |name: &'static str, v: String| match out.iter_mut().find(|(n, _)| *n == name) {
        Some(slot) => slot.1 = v,
        None => out.push((name, v)),
    };
    for (k, v) in entries {
        if k.eq_ignore_ascii_case("SchedulerParameters") {
            for opt in v.split(',') {
                let (ok, ov) = opt.split_once('=').unwrap_or((opt, "yes"));
                if let Some(n) = option_name(ok) {
                    put(n, ov.trim().to_string());
                }
            }
        } else if let Some(n) = key_name(k) {
            put(n, v.trim().to_string());
        }
    }
    out
}

/// The bad values of a slurm.conf's keys the `slurm` policy reads (`entries`: key as written,
/// value, line, and the file an `Include` line read it from, if one did), each checked as [`super::SlurmParams::set`] reads it: (parameter, error naming
/// the file, the line and the key: `slurm.conf:32: SchedulerParameters, bf_window: "abc" is not
/// a whole number from 1 to 43200`), which the policy's spec, where the value ends up, cannot
/// name. A value a later line replaces is not checked (the last line wins). A line of an
/// included file is named by that file, not by `file`.
pub fn check_conf_values(
    entries: &[(&str, &str, usize, Option<&str>)],
    file: &str,
) -> Vec<(&'static str, String)> {
    let last = conf_pairs(entries.iter().map(|&(k, v, _, _)| (k, v)));
    let mut bad = Vec::new();
    for &(k, v, line, included) in entries {
        let file = included.unwrap_or(file);
        for (name, value) in conf_pairs(std::iter::once((k, v))) {
            if !last.iter().any(|(n, w)| *n == name && *w == value) {
                continue;
            }
            let field = match k.eq_ignore_ascii_case("SchedulerParameters") {
                true => format!("SchedulerParameters, {name}"),
                false => k.to_string(),
            };
            if let Err(e) = super::SlurmParams::default().set(name, &value) {
                bad.push((name, format!("{file}:{line}: {field}: {e}")));
            }
        }
    }
    bad
}

/// The parameter a `SchedulerParameters` option names (`bf_window`, any case), in [`NAMES`]
/// spelling.
pub(super) fn option_name(option: &str) -> Option<&'static str> {
    let option = option.trim();
    NAMES
        .iter()
        .find(|n| n.eq_ignore_ascii_case(option) && n.starts_with(char::is_lowercase))
        .copied()
}

/// The parameter a slurm.conf key names (`PriorityWeightAge`, any case), in [`NAMES`]
/// spelling; `PriorityJobFactor` is a partition's and `MaxJobsAccrue` an association's
/// (sacctmgr's), not keys of the file.
pub(super) fn key_name(key: &str) -> Option<&'static str> {
    NAMES
        .iter()
        .find(|n| {
            n.eq_ignore_ascii_case(key)
                && n.starts_with(char::is_uppercase)
                && !["PriorityJobFactor", "MaxJobsAccrue"].contains(*n)
        })
        .copied()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn conf_pairs_split_scheduler_parameters() {
        let conf = [
            (
                "schedulerparameters",
                "bf_interval=5,bf_window=30,bf_continue,sched_interval=10,max_rpc_cnt=9,\
                 batch_sched_delay=7",
            ),
            ("PriorityWeightAge", "1000"),
            ("ClusterName", "lab"),
        ];
        let pairs = conf_pairs(conf.iter().copied());
        assert_eq!(
            pairs,
            vec![
                ("bf_interval", "5".to_string()),
                ("bf_window", "30".to_string()),
                ("bf_continue", "yes".to_string()),
                ("sched_interval", "10".to_string()),
                ("batch_sched_delay", "7".to_string()),
                ("PriorityWeightAge", "1000".to_string()),
            ]
        );
    }

    /// A bad value of a key the policy reads names the file, its line and the key (before:
    /// `policy "slurm[KillWait=5,...,bf_window=abc,...]": bf_window=abc: ...`, a spec the admin
    /// never wrote); a bad value a later line replaces, and keys the policy does not read, pass.
    #[test]
    fn a_bad_value_names_the_file_line_and_key() {
        let conf = [
            ("ClusterName", "lab", 1, None),
            ("PriorityWeightAge", "lots", 2, None),
            (
                "SchedulerParameters",
                "bf_interval=5,bf_window=abc",
                3,
                None,
            ),
        ];
        assert_eq!(
            check_conf_values(&conf, "site/slurm.conf"),
            vec![
                (
                    "PriorityWeightAge",
                    "site/slurm.conf:2: PriorityWeightAge: \"lots\" is not a weight >= 0: a \
                     whole number from 0 to 4294967295"
                        .to_string()
                ),
                (
                    "bf_window",
                    "site/slurm.conf:3: SchedulerParameters, bf_window: \"abc\" is not a \
                     whole number from 1 to 43200 (minutes)"
                        .to_string()
                ),
            ]
        );
        let replaced = [
            ("PriorityWeightAge", "lots", 2, None),
            ("MaxJobCount", "many", 3, None),
            ("priorityweightage", "1000", 9, None),
        ];
        assert_eq!(check_conf_values(&replaced, "slurm.conf"), vec![]);
    }

    /// A fractional priority weight in slurm.conf is refused naming the file, the line, the
    /// key and the value (Slurm reads the five weights as whole numbers; 1.5 was taken).
    #[test]
    fn a_fractional_weight_names_the_file_line_and_key() {
        for key in super::super::WHOLE_WEIGHTS {
            let conf = [("ClusterName", "lab", 1, None), (key, "1.5", 4, None)];
            assert_eq!(
                check_conf_values(&conf, "site/slurm.conf"),
                vec![(
                    key,
                    format!(
                        "site/slurm.conf:4: {key}: \"1.5\" is not a weight >= 0: Slurm's \
                         priority weights are whole numbers from 0 to 4294967295"
                    )
                )]
            );
        }
    }

    /// A bad value in a file an `Include` line reads is named by that file and its own line:
    /// site.conf line 2 includes prio.conf, whose line 2 sets `PriorityWeightFairshare=high`:
    /// `.../prio.conf:2: ...` (before: `.../site.conf:2: ...`, the top file with the included
    /// file's line number, a line that says something else).
    #[test]
    fn a_bad_value_in_an_included_file_names_that_file() {
        let d = std::env::temp_dir().join(format!("schedlab-prio-include-{}", std::process::id()));
        std::fs::create_dir_all(&d).unwrap();
        std::fs::write(
            d.join("site.conf"),
            "NodeName=n[1-2] CPUs=4\nInclude prio.conf\nPartitionName=p Nodes=ALL\n",
        )
        .unwrap();
        std::fs::write(
            d.join("prio.conf"),
            "PriorityWeightAge=10\nPriorityWeightFairshare=high\n",
        )
        .unwrap();
        let site = d.join("site.conf");
        let read = crate::cluster::conf::read_path(&site).unwrap();
        let top = site.display().to_string();
        let errors = check_conf_values(&read.params.iter_placed().collect::<Vec<_>>(), &top);
        let prio = d.join("prio.conf").display().to_string();
        assert_eq!(
            errors,
            vec![(
                "PriorityWeightFairshare",
                format!(
                    "{prio}:2: PriorityWeightFairshare: \"high\" is not a weight >= 0: a whole \
                     number from 0 to 4294967295"
                )
            )]
        );
        std::fs::remove_dir_all(&d).unwrap();
    }

    /// A key given twice keeps its last value, in the place of its first; keys match without
    /// regard to case but options only as options (`bf_window` is no key of its own, and
    /// `PriorityJobFactor` is a partition's, not the file's); an option without a value is
    /// `yes`, spaces around a value are dropped.
    #[test]
    fn a_later_key_wins_and_only_the_models_names_are_read() {
        let conf = [
            ("PRIORITYMAXAGE", "7-0"),
            ("bf_window", "60"),
            ("PriorityJobFactor", "5"),
            ("SchedulerParameters", " bf_continue , bf_window = 30 "),
            ("prioritymaxage", " 1-0 "),
        ];
        assert_eq!(
            conf_pairs(conf.iter().copied()),
            vec![
                ("PriorityMaxAge", "1-0".to_string()),
                ("bf_continue", "yes".to_string()),
                ("bf_window", "30".to_string()),
            ]
        );
        assert_eq!(key_name("overtimelimit"), Some("OverTimeLimit"));
        assert_eq!(key_name("bf_window"), None);
        assert_eq!(key_name("PriorityJobFactor"), None);
        assert_eq!(option_name(" BF_Window "), Some("bf_window"));
        assert_eq!(option_name("KillWait"), None);
    }
}
