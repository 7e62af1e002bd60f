//! Which of a slurm.conf's keys the `slurm` policy reads, and which it has no rule for: said
//! beside the cluster a slurm.conf gives (the CLI's stderr, the page's cluster note), so that an
//! admin knows what of their configuration a schedule reflects. A `SchedulerParameters`
//! option counts as a key of its own.

/// The plugin keys whose values the model is (sched/backfill, priority/multifactor, select/cons_tres;
/// cons_res places as cons_tres does without GPUs).
const PLUGINS: [(&str, &[&str]); 3] = [
    ("SchedulerType", &["sched/backfill"]),
    ("PriorityType", &["priority/multifactor"]),
    ("SelectType", &["select/cons_tres", "select/cons_res"]),
];

/// A slurm.conf's keys (each once, in file order): those the `slurm` policy reads (in
/// [`super::NAMES`] spelling, as [`super::conf_pairs`] takes them) and the others, as written.
#[derive(Debug, Default, PartialEq)]
pub struct ConfKeys {
    pub read: Vec<String>,
    pub unread: Vec<String>,
}

/// The keys of `entries` (a slurm.conf's key, value pairs other than its node and partition
/// lines), split.
pub fn conf_keys<'a>(entries: impl Iterator<Item = (&'a str, &'a str)>) -> ConfKeys {
    let mut out = ConfKeys::default();
    let add = |list: &mut Vec<String>, k: &str| {
        if !list.iter().any(|x| x.eq_ignore_ascii_case(k)) {
            list.push(k.to_string());
        }
    };
    // The options of SchedulerParameters the model lacks come first among the others, then
    // the keys of scheduling (`Priority*`, `Preempt*`, `Sched*`), then the daemons' keys.
    let mut options = Vec::new();
    for (k, v) in entries {
        if k.eq_ignore_ascii_case("SchedulerParameters") {
            for opt in v.split(',').map(str::trim).filter(|o| !o.is_empty()) {
                let name = opt.split_once('=').map_or(opt, |(n, _)| n).trim();
                match super::slurm_conf::option_name(name) {
                    Some(n) => add(&mut out.read, n),
                    None => add(&mut options, name),
                }
            }
            continue;
        }
        // The plugins the model is: read when the slurm.conf names them, not modelled else.
        if let Some((_, plugins)) = PLUGINS.iter().find(|(n, _)| n.eq_ignore_ascii_case(k)) {
            match plugins.iter().any(|p| p.eq_ignore_ascii_case(v.trim())) {
                true => add(&mut out.read, k),
                false => add(&mut out.unread, &format!("{k}={}", v.trim())),
            }
            continue;
        }
        match super::slurm_conf::key_name(k) {
            Some(n) => add(&mut out.read, n),
            None => add(&mut out.unread, k),
        }
    }
    let scheduling = |k: &String| {
        let k = k.to_ascii_lowercase();
        !["priority", "preempt", "sched"]
            .iter()
            .any(|p| k.starts_with(p))
    };
    out.unread.sort_by_key(scheduling);
    options.append(&mut out.unread);
    out.unread = options;
    out
}

impl ConfKeys {
    /// The keys it does not model alone (the page, which names what the policy reads in its
    /// site note): `2 keys the slurm policy does not model (D, E)`; `None` when there are none.
    pub fn unread_note(&self, named: usize) -> Option<String> {
        (!self.unread.is_empty()).then(|| {
            format!(
                "{} the slurm policy does not model ({})",
                crate::plural::count(self.unread.len(), "key"),
                names(&self.unread, named)
            )
        })
    }

    /// One line: `the slurm policy reads 3 of its keys (A, B, C); 2 others it does not
    /// model (D, E)`, at most `named` names a list, `None` when there is no key at all.
    pub fn note(&self, named: usize) -> Option<String> {
        if self.read.is_empty() && self.unread.is_empty() {
            return None;
        }
        let list = |v: &[String]| names(v, named);
        let read = match self.read.len() {
            0 => "the slurm policy reads none of its keys".to_string(),
            n => format!(
                "the slurm policy reads {n} of its keys ({})",
                list(&self.read)
            ),
        };
        Some(match self.unread.len() {
            0 => read,
            n => format!(
                "{read}; {} it does not model ({})",
                crate::plural::count(n, "other"),
                list(&self.unread)
            ),
        })
    }
}

/// At most `named` of `v`, then how many more.
fn names(v: &[String], named: usize) -> String {
    let mut s = v.iter().take(named).cloned().collect::<Vec<_>>().join(", ");
    if v.len() > named {
        s.push_str(&format!(" and {} more", v.len() - named));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_scheduler_options_split_by_what_the_policy_reads() {
        let conf = [
            ("ClusterName", "lab"),
            ("PriorityWeightAge", "1000"),
            ("priorityweightfairshare", "10"),
            (
                "SchedulerParameters",
                "bf_window=60, bf_yield_interval=2000000,bf_continue",
            ),
            ("SelectType", "select/cons_tres"),
            ("PriorityType", "priority/basic"),
            ("PreemptType", "preempt/none"),
            ("PriorityWeightAge", "2000"),
        ];
        let k = conf_keys(conf.into_iter());
        // select/cons_tres is the model's plugin; priority/basic is not. The scheduler's
        // options come first among the others, then the scheduling keys, then the daemons'.
        let read = [
            "PriorityWeightAge",
            "PriorityWeightFairshare",
            "bf_window",
            "bf_continue",
            "SelectType",
        ];
        assert_eq!(k.read, read);
        let unread = [
            "bf_yield_interval",
            "PriorityType=priority/basic",
            "PreemptType",
            "ClusterName",
        ];
        assert_eq!(k.unread, unread);
        assert_eq!(
            k.note(2).unwrap(),
            "the slurm policy reads 5 of its keys (PriorityWeightAge, PriorityWeightFairshare \
             and 3 more); 4 others it does not model (bf_yield_interval, \
             PriorityType=priority/basic and 2 more)"
        );
        assert_eq!(
            k.unread_note(1).unwrap(),
            "4 keys the slurm policy does not model (bf_yield_interval and 3 more)"
        );
        assert_eq!(conf_keys([].into_iter()).note(8), None);
        assert_eq!(conf_keys([].into_iter()).unread_note(8), None);
    }
}
