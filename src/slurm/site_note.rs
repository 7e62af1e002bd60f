//! A note on `--sshare` against the log it is given with: the log's users and accounts that the
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

/// The first few names, comma-separated.
fn first(names: &[&str]) -> String {
    const SHOWN: usize = 5;
    let mut s = names[..names.len().min(SHOWN)].join(", ");
    if names.len() > SHOWN {
        s.push_str(", ...");
    }
    s
}
