//! `sshare -a -l -P` output: the association tree (accounts and users, one row each, the
//! account column indented one space per level), raw shares, raw usage and, for checking,
//! Slurm's own `FairShare` and `LevelFS` columns.
//!
//! ```text
//! Account|User|RawShares|NormShares|RawUsage|NormUsage|EffectvUsage|FairShare|LevelFS|...
//! root|||0.000000|5207||1.000000||||...
//!  bio||20|0.198020|519|0.099827|0.099827||1.983624||...
//!   bio|alice|1|0.500000|134|0.025870|0.259143|0.875000|1.929437||...
//! ```

use crate::quote::quote;

/// A row's raw shares.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Shares {
    /// A number of shares.
    Raw(u32),
    /// `parent`: the association uses its parent's fairshare (Slurm's `FairShare=parent`).
    Parent,
}

/// One row of `sshare -a -l -P`.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    /// Its line in the file (from 1).
    pub line: usize,
    /// Depth in the tree: 0 for root, one more per leading space of the account column.
    pub depth: usize,
    /// The account.
    pub account: String,
    /// The user, for a user association.
    pub user: Option<String>,
    /// Raw shares (root has none: taken as 1).
    pub shares: Shares,
    /// Raw (decayed) usage, TRES-billing-seconds.
    pub raw_usage: f64,
    /// Slurm's FairShare column (users), when shown.
    pub fairshare: Option<f64>,
    /// Slurm's LevelFS column, when shown (`inf` is infinity).
    pub level_fs: Option<f64>,
}

/// Reads the rows; an error names the file, line and field.
pub fn parse(text: &str, file: &str) -> Result<Vec<Row>, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hl, header)) = lines.next() else {
        return Err(format!(
            "{file}: empty; expected the output of sshare -a -l -P"
        ));
    };
    let names: Vec<String> = header
        .split('|')
        .map(|s| s.trim().to_ascii_lowercase())
        .collect();
    let col = |n: &str| names.iter().position(|x| x == n);
    // A field named as sshare prints it (the error said "no rawusage field").
    let need = |name: &str| {
        col(&name.to_ascii_lowercase()).ok_or_else(|| {
            format!(
                "{file}:{}: the header names no {name} field (sshare -a -l -P output needs Account, User, RawShares, RawUsage)",
                hl + 1
            )
        })
    };
    let (ca, cu, cs, cr) = (
        need("Account")?,
        need("User")?,
        need("RawShares")?,
        need("RawUsage")?,
    );
    let (cf, cl) = (col("fairshare"), col("levelfs"));
    let mut rows = Vec::new();
    for (i, l) in lines {
        let line = i + 1;
        let f: Vec<&str> = l.split('|').collect();
        let get = |c: usize| f.get(c).copied().unwrap_or("");
        let err = |field: &str, what: String| format!("{file}:{line}: {field}: {what}");
        let acc = get(ca);
        let depth = acc.len() - acc.trim_start_matches(' ').len();
        let account = acc.trim().to_string();
        if account.is_empty() {
            return Err(err("Account", "empty".into()));
        }
        let user = Some(get(cu).trim())
            .filter(|u| !u.is_empty())
            .map(str::to_string);
        let s = get(cs).trim();
        let shares = if s.is_empty() {
            Shares::Raw(1)
        } else if s.eq_ignore_ascii_case("parent") {
            Shares::Parent
        } else {
            Shares::Raw(s.parse().map_err(|_| {
                err(
                    "RawShares",
                    format!("{} is not a number of shares", quote(s)),
                )
            })?)
        };
        let r = get(cr).trim();
        let raw_usage = if r.is_empty() {
            0.0
        } else {
            match r.parse::<f64>() {
                Ok(v) if v.is_finite() && v >= 0.0 => v,
                _ => return Err(err("RawUsage", format!("{} is not a usage >= 0", quote(r)))),
            }
        };
        let opt = |c: Option<usize>| {
            c.map(get)
                .map(str::trim)
                .filter(|v| !v.is_empty())
                .and_then(|v| {
                    if v == "inf" {
                        Some(f64::INFINITY)
                    } else {
                        v.parse::<f64>().ok()
                    }
                })
        };
        if rows.is_empty() && depth != 0 {
            return Err(err(
                "Account",
                "the first row must be root, not indented".into(),
            ));
        }
        if !rows.is_empty() && depth == 0 {
            return Err(err(
                "Account",
                "only the first row (root) is not indented".into(),
            ));
        }
        rows.push(Row {
            line,
            depth,
            account,
            user,
            shares,
            raw_usage,
            fairshare: opt(cf),
            level_fs: opt(cl),
        });
    }
    if rows.is_empty() {
        return Err(format!("{file}: no association rows"));
    }
    Ok(rows)
}
