//! A note on `--sshare` (and `--qos`: [`qos_note`]; `--assoc`: [`assoc_note`]) against the log it is given with: the log's users and accounts that the
//! file has no association for. The policy still runs (such a user is charged under root with
//! one share, Slurm's default; a job whose account is not there, to its user's first
//! association), but an sshare file of another cluster, or of another time, gives every job
//! the same fairshare without a word (the CLI says it on stderr; kept here, beside [`Site`],
//! so that every front end can say it).

use super::Site;
use std::collections::BTreeSet;

/// The note for `site` (with the log's user names and accounts taken), or `None` when every
/// user and account of the log is in its sshare file (or there is no file).
pub fn sshare_note(site: &Site) -> Option<String> {
    let (rows, file) = site.sshare.as_ref()?;
    let users: BTreeSet<&str> = rows.iter().filter_map(|r| r.user.as_deref()).collect();
    let accounts: BTreeSet<&str> = rows.iter().map(|r| r.account.as_str()).collect();
    let logged_users: BTreeSet<&str> = site.users.iter().map(String::as_str).collect();
    let logged_accounts: BTreeSet<&str> = site
        .accounts
        .iter()
        .map(String::as_str)
        .filter(|a| !a.is_empty())
        .collect();
    let missing_users: Vec<&str> = logged_users.difference(&users).copied().collect();
    let missing_accounts: Vec<&str> = logged_accounts.difference(&accounts).copied().collect();
    let mut parts = Vec::new();
    if !missing_users.is_empty() {
        parts.push(format!(
            "{} of the log's {} users have no association in it ({}): each is charged under \
             root with one share",
            missing_users.len(),
            logged_users.len(),
            first(&missing_users)
        ));
    }
    if !missing_accounts.is_empty() {
        parts.push(format!(
            "{} of its {} accounts are not in it ({}): their jobs are charged to their user's \
             first association",
            missing_accounts.len(),
            logged_accounts.len(),
            first(&missing_accounts)
        ));
    }
    if parts.is_empty() {
        return None;
    }
    let other = missing_users.len() == logged_users.len() && !logged_users.is_empty();
    let hint = match other {
        true => " (is it the sshare of the cluster and time of this log?)",
        false => "",
    };
    Some(format!("{file}: {}{hint}", parts.join("; ")))
}

/// The note on `--qos` against the log (with its jobs' QOS taken): the QOS the log's jobs run
/// in that the file does not list (their jobs get QOS priority 0; Slurm would have refused
/// them), or `None` when it lists every one (or there is no file). A job with no QOS runs in
/// `normal`.
pub fn qos_note(site: &Site) -> Option<String> {
    let (table, file) = site.qos.as_ref()?;
    let used: BTreeSet<&str> = (0..site.job_qos.len())
        .map(|j| site.qos_of(j).unwrap_or(super::qos::DEFAULT_QOS))
        .collect();
    let missing: Vec<&str> = (used.iter().copied())
        .filter(|n| table.priority(n).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "{file}: {} of the log's {} QOS {} not in it ({}): {} jobs get QOS priority 0",
        missing.len(),
        used.len(),
        if missing.len() == 1 { "is" } else { "are" },
        first(&missing),
        if missing.len() == 1 { "its" } else { "their" },
    ))
}

/// The note on `--assoc` against the log (with its accounts taken): the log's accounts the
/// file has no association for (their jobs are held by no association limit; Slurm would have
/// refused them), or `None` when it has every one (or there is no file, or the log names no
/// account).
pub fn assoc_note(site: &Site) -> Option<String> {
    let (table, file) = site.assoc.as_ref()?;
    let logged: BTreeSet<&str> = (site.accounts.iter())
        .map(String::as_str)
        .filter(|a| !a.is_empty())
        .collect();
    let missing: Vec<&str> = (logged.iter().copied())
        .filter(|a| table.find(a, None).is_none())
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "{file}: {} of the log's {} accounts {} not in it ({}): {} jobs are held by no \
         association limit",
        missing.len(),
        logged.len(),
        if missing.len() == 1 { "is" } else { "are" },
        first(&missing),
        if missing.len() == 1 { "its" } else { "their" },
    ))
}

/// The note on the limits of `--qos` and `--assoc` files when the slurm.conf's
/// `AccountingStorageEnforce` names none of `limits`, `safe`, `all` (or no slurm.conf gives
/// it): Slurm then holds no QOS or association limit, and the policy neither, so the limits a
/// user gave were dropped without a word on the command line (the page's note said "held when
/// slurm.conf's AccountingStorageEnforce names limits"). `None` when the files have no limits
/// or the slurm.conf holds them.
pub fn limits_note(site: &Site) -> Option<String> {
    let enforced = (site.conf.iter())
        .find(|(k, _)| *k == "AccountingStorageEnforce")
        .is_some_and(|(_, v)| {
            v.split(|c: char| c == ',' || c == '(' || c == ')' || c.is_whitespace())
                .any(|w| ["limits", "2", "safe", "all"].contains(&w.to_ascii_lowercase().as_str()))
        });
    // Accrue limits too (`accrue.rs`: read only with limits enforced).
    let qos = (site.qos.as_ref()).filter(|(t, _)| !t.limits.is_empty() || !t.accrue.is_empty());
    let assoc = (site.assoc.as_ref())
        .filter(|(t, _)| t.has_limits() || t.rows.iter().any(|a| !a.accrue.is_none()));
    let files: Vec<&str> = [qos.map(|q| q.1.as_str()), assoc.map(|a| a.1.as_str())]
        .into_iter()
        .flatten()
        .collect();
    if enforced || files.is_empty() {
        return None;
    }
    Some(format!(
        "{}: {} limits are not held: slurm.conf's AccountingStorageEnforce does not name limits \
         (nor safe, all), and Slurm then holds none (slurm[AccountingStorageEnforce=limits] \
         holds them)",
        files.join(", "),
        if files.len() == 1 { "its" } else { "their" },
    ))
}

/// Every note on the site's files against the log ([`sshare_note`], [`qos_note`],
/// [`assoc_note`], [`limits_note`]).
pub fn notes(site: &Site) -> Vec<String> {
    [
        sshare_note(site),
        qos_note(site),
        assoc_note(site),
        limits_note(site),
    ]
    .into_iter()
    .flatten()
    .collect()
}

/// The first few names, comma-separated.
fn first(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut s = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        s.push_str(", ...");
    }
    s
}

#[cfg(test)]
mod tests {
    use super::{limits_note, Site};
    use crate::slurm::{assoc, qos};

    /// By hand: a QOS file with one limit (high MaxJobsPU=4) and an assoc file with one
    /// (physics GrpJobs=2); without AccountingStorageEnforce, or with `associations,qos`, Slurm
    /// holds neither: the note names both files. With `limits` (or `safe`, `all`) it holds
    /// them: no note. A QOS file of priorities alone has no limit to drop: no note.
    #[test]
    fn limits_not_held_are_said() {
        let q = qos::parse(
            "Name|Priority|MaxJobsPU\nnormal|0|\nhigh|100|4\n",
            "qos.txt",
        )
        .unwrap();
        let a = assoc::parse(
            "Account|User|ParentName|GrpJobs\nroot|||\nphysics||root|2\n",
            "assoc.txt",
        )
        .unwrap();
        let site = |enforce: Option<&str>, qos: &qos::QosTable| Site {
            conf: enforce
                .map(|e| vec![("AccountingStorageEnforce", e.to_string())])
                .unwrap_or_default(),
            qos: Some((qos.clone(), "qos.txt".into())),
            assoc: Some((a.clone(), "assoc.txt".into())),
            ..Site::default()
        };
        let want = "qos.txt, assoc.txt: their limits are not held: slurm.conf's \
                    AccountingStorageEnforce does not name limits (nor safe, all), and Slurm \
                    then holds none (slurm[AccountingStorageEnforce=limits] holds them)";
        assert_eq!(limits_note(&site(None, &q)).as_deref(), Some(want));
        assert_eq!(
            limits_note(&site(Some("associations,qos"), &q)).as_deref(),
            Some(want)
        );
        for held in ["associations,limits", "safe", "All", "qos,limits"] {
            assert_eq!(limits_note(&site(Some(held), &q)), None, "{held}");
        }
        let plain = qos::parse("Name|Priority\nnormal|0\nhigh|100\n", "qos.txt").unwrap();
        let only_assoc = Site {
            qos: Some((plain, "qos.txt".into())),
            ..site(None, &q)
        };
        assert!(limits_note(&only_assoc)
            .unwrap()
            .starts_with("assoc.txt: its limits are not held"));
        // A QOS file of an accrue limit alone: not read without limits enforced either.
        let accrue = qos::parse(
            "Name|Priority|MaxJobsAccruePU
normal|0|2
",
            "qos.txt",
        )
        .unwrap();
        assert!(limits_note(&site(None, &accrue))
            .unwrap()
            .starts_with("qos.txt, assoc.txt: their limits are not held"));
    }
}
