//! The QOS priorities of a site (`sacctmgr show qos format=Name,Priority -P` output, or the
//! `slurm` policy's `qos` key) and each job's QOS factor from them, as Slurm 22.05 computes it:
//! a job's QOS priority over the largest priority of any QOS of the cluster
//! (assoc_mgr.c `_set_qos_norm_priority`, `g_qos_max_priority`), its own priority with
//! `PriorityFlags=NO_NORMAL_QOS` (or `NO_NORMAL_ALL`), 0 when that priority is 0
//! (priority_multifactor.c `set_priority_factors`). A job whose log names no QOS runs in its
//! association's default, which with no default set is `normal`
//! (assoc_mgr.c `assoc_mgr_get_default_qos_info`).
//!
//! ```text
//! Name|Priority
//! normal|10
//! high|100
//! low|0
//! ```
//!
//! A file with the limits' columns too (`format=Name,Priority,UsageFactor,MaxJobsPU,MaxTRESPU,
//! GrpTRES,GrpJobs,MaxWall,GrpTRESMins,GrpTRESRunMins,MaxTRESMins,Flags`) gives each QOS's
//! limits ([`QosLimits`], `qos_limits.rs`) and its `UsageFactor`: a job's usage is charged
//! times its QOS's (priority_multifactor.c `_apply_new_usage`; 1 without the column); the
//! columns `GrpJobsAccrue`, `MaxJobsAccruePU` and `MaxJobsAccruePA` its accrue limits
//! (`accrue.rs`).

use super::accrue::AccrueLimits;
use super::qos_limits::{self, QosLimits};
use crate::quote::quote;

/// The QOS a job without one runs in (no association default is known).
pub const DEFAULT_QOS: &str = "normal";

/// A site's QOS priorities: (name, priority) in the file's order, and the limits of those
/// that have any.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct QosTable {
    /// (name, priority).
    pub rows: Vec<(String, u32)>,
    /// (name, limits) of the QOS with a limit, in the file's order (the `qos` key gives none).
    pub limits: Vec<(String, QosLimits)>,
    /// (name, `UsageFactor`) of the QOS whose factor is not 1, in the file's order.
    pub usage_factors: Vec<(String, f64)>,
    /// (name, accrue limits) of the QOS with one (`GrpJobsAccrue`, `MaxJobsAccruePU`,
    /// `MaxJobsAccruePA`: `accrue.rs`), in the file's order.
    pub accrue: Vec<(String, AccrueLimits)>,
}

impl QosTable {
    /// The limits of QOS `name`, when it has any.
    pub fn limits_of(&self, name: &str) -> Option<&QosLimits> {
        self.limits.iter().find(|(n, _)| n == name).map(|(_, l)| l)
    }

    /// The accrue limits of QOS `name`, when it has any.
    pub fn accrue_of(&self, name: &str) -> Option<AccrueLimits> {
        self.accrue.iter().find(|(n, _)| n == name).map(|&(_, l)| l)
    }

    /// The `UsageFactor` of QOS `name`: what its jobs' usage is charged times (1 when the
    /// table gives none).
    pub fn usage_factor(&self, name: &str) -> f64 {
        (self.usage_factors.iter())
            .find(|(n, _)| n == name)
            .map_or(1.0, |&(_, f)| f)
    }

    /// The priority of QOS `name`, when the table has it.
    pub fn priority(&self, name: &str) -> Option<u32> {
        self.rows.iter().find(|(n, _)| n == name).map(|&(_, p)| p)
    }

    /// The largest priority of any QOS (Slurm's `g_qos_max_priority`).
    pub fn max(&self) -> u32 {
        self.rows.iter().map(|&(_, p)| p).max().unwrap_or(0)
    }

    /// The QOS factor of a job in QOS `name` (`None`: the log names none, so `normal`):
    /// its priority over the largest, or the priority itself when `normalized` is false
    /// (`NO_NORMAL_QOS`); 0 for a QOS the table lacks.
    pub fn factor(&self, name: Option<&str>, normalized: bool) -> f64 {
        let p = self.priority(name.unwrap_or(DEFAULT_QOS)).unwrap_or(0);
        let max = self.max();
        if p == 0 || max == 0 {
            0.0
        } else if normalized {
            f64::from(p) / f64::from(max)
        } else {
            f64::from(p)
        }
    }

    /// The table as the `qos` key writes it: `(high:100,normal:10)`, one bare, `none` empty.
    pub fn key_text(&self) -> String {
        let items: Vec<String> = self.rows.iter().map(|(n, p)| format!("{n}:{p}")).collect();
        match items.len() {
            0 => "none".into(),
            1 => items[0].clone(),
            _ => format!("({})", items.join(",")),
        }
    }
}

/// A QOS priority: a whole number Slurm keeps in 32 bits.
fn priority(v: &str) -> Result<u32, String> {
    v.trim()
        .parse::<u32>()
        .map_err(|_| format!("{} is not a whole number from 0 to {}", quote(v), u32::MAX))
}

/// A `UsageFactor` as sacctmgr prints it (`2.000000`; empty: 1), at least 0.
fn usage_factor(v: &str) -> Result<f64, String> {
    let v = v.trim();
    if v.is_empty() {
        return Ok(1.0);
    }
    match v.parse::<f64>() {
        Ok(f) if f.is_finite() && f >= 0.0 => Ok(f),
        _ => Err(format!("{} is not a number of 0 or more", quote(v))),
    }
}

/// A QOS name: a Slurm QOS name (no `|`, `,`, `:`, spaces or parentheses).
fn name(v: &str) -> Result<String, String> {
    let n = v.trim();
    if n.is_empty() || n.contains(['|', ',', ':', '=', '(', ')', '[', ']', ' ']) {
        return Err(format!("{} is not a QOS name", quote(v)));
    }
    Ok(n.to_string())
}

/// Reads `sacctmgr show qos format=Name,Priority -P` output (with or without its header line,
/// `-n`; other columns beside them are skipped when the header names them); an error names the
/// file, line and field.
pub fn parse(text: &str, file: &str) -> Result<QosTable, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .peekable();
    let Some(&(hl, head)) = lines.peek() else {
        return Err(format!(
            "{file}: empty; expected the output of sacctmgr show qos format=Name,Priority -P"
        ));
    };
    let names: Vec<String> = (head.trim_start_matches('\u{feff}').split('|'))
        .map(|s| s.trim().to_ascii_lowercase())
        .collect();
    let headed = names.iter().any(|n| n == "name" || n == "priority");
    // The limits' columns, each by either of sacctmgr's names for it (the header's short one,
    // the format's long one).
    let limit_col = |a: &str, b: &str| {
        headed
            .then(|| names.iter().position(|x| x == a || x == b))
            .flatten()
    };
    let limit_cols = [
        limit_col("maxjobspu", "maxjobsperuser"),
        limit_col("maxtrespu", "maxtresperuser"),
        limit_col("grptres", "grptres"),
        limit_col("grpjobs", "grpjobs"),
        limit_col("maxwall", "maxwalldurationperjob"),
        limit_col("grptresmins", "grptresmins"),
        limit_col("grptresrunmins", "grptresrunmins"),
        limit_col("maxtresmins", "maxtresminsperjob"),
    ];
    let usage_col = limit_col("usagefactor", "usagefactor");
    let accrue_cols = [
        limit_col("grpjobsaccrue", "grpjobsaccrue"),
        limit_col("maxjobsaccruepu", "maxjobsaccrueperuser"),
        limit_col("maxjobsaccruepa", "maxjobsaccrueperaccount"),
    ];
    let (cn, cp) = if headed {
        let col = |n: &str| {
            names.iter().position(|x| x == n).ok_or_else(|| {
                format!(
                    "{file}:{}: the header names no {n} field (sacctmgr show qos \
                     format=Name,Priority -P)",
                    hl + 1
                )
            })
        };
        let cols = (col("name")?, col("priority")?);
        lines.next();
        cols
    } else {
        (0, 1)
    };
    let mut table = QosTable::default();
    for (i, l) in lines {
        let line = i + 1;
        let f: Vec<&str> = l.trim_end_matches('\r').split('|').collect();
        let get = |c: usize, field: &str| {
            f.get(c)
                .copied()
                .ok_or_else(|| format!("{file}:{line}: {field}: missing"))
        };
        // A first line that is neither the header nor a QOS line is most likely another
        // file's header (an sshare file given as --qos): said so, beside the field's error.
        let hint = if !headed && i == hl {
            " (the first line names no Name and Priority header and is no QOS line either: expected \
             the output of sacctmgr show qos format=Name,Priority -P)"
        } else {
            ""
        };
        let n = name(get(cn, "Name")?).map_err(|e| format!("{file}:{line}: Name: {e}{hint}"))?;
        let p = priority(get(cp, "Priority")?)
            .map_err(|e| format!("{file}:{line}: Priority: {e}{hint}"))?;
        if table.priority(&n).is_some() {
            return Err(format!(
                "{file}:{line}: Name: QOS {} is listed twice",
                quote(&n)
            ));
        }
        let field = |k: usize| limit_cols[k].and_then(|c| f.get(c).copied()).unwrap_or("");
        let at = |name: &'static str| move |e: String| format!("{file}:{line}: {name}: {e}");
        let limits = QosLimits {
            max_jobs_pu: qos_limits::parse_count(field(0)).map_err(at("MaxJobsPU"))?,
            max_tres_pu: qos_limits::parse_tres(field(1)).map_err(at("MaxTRESPU"))?,
            grp_tres: qos_limits::parse_tres(field(2)).map_err(at("GrpTRES"))?,
            grp_jobs: qos_limits::parse_count(field(3)).map_err(at("GrpJobs"))?,
            max_wall: qos_limits::parse_wall(field(4)).map_err(at("MaxWall"))?,
            grp_tres_mins: qos_limits::parse_tres(field(5)).map_err(at("GrpTRESMins"))?,
            grp_tres_run_mins: qos_limits::parse_tres(field(6)).map_err(at("GrpTRESRunMins"))?,
            max_tres_mins: qos_limits::parse_tres(field(7)).map_err(at("MaxTRESMins"))?,
        };
        if !limits.is_none() {
            table.limits.push((n.clone(), limits));
        }
        let accrue_field = |k: usize| accrue_cols[k].and_then(|c| f.get(c).copied()).unwrap_or("");
        let accrue = AccrueLimits {
            grp: qos_limits::parse_count(accrue_field(0)).map_err(at("GrpJobsAccrue"))?,
            max: qos_limits::parse_count(accrue_field(1)).map_err(at("MaxJobsAccruePU"))?,
            max_pa: qos_limits::parse_count(accrue_field(2)).map_err(at("MaxJobsAccruePA"))?,
        };
        if !accrue.is_none() {
            table.accrue.push((n.clone(), accrue));
        }
        let uf = usage_col.and_then(|c| f.get(c).copied()).unwrap_or("");
        let uf = usage_factor(uf).map_err(at("UsageFactor"))?;
        if uf != 1.0 {
            table.usage_factors.push((n.clone(), uf));
        }
        table.rows.push((n, p));
    }
    Ok(table)
}

/// Reads the `qos` key's value: `none`, or `name:priority` items (one bare, several in
/// parentheses, `name=priority` also taken).
pub fn parse_key(v: &str) -> Result<QosTable, String> {
    let v = v.trim();
    let inner = v
        .strip_prefix('(')
        .and_then(|x| x.strip_suffix(')'))
        .unwrap_or(v);
    let mut table = QosTable::default();
    for it in inner.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        if it.eq_ignore_ascii_case("none") {
            continue;
        }
        let (n, p) = it
            .split_once([':', '='])
            .ok_or_else(|| format!("{} is not name:priority", quote(it)))?;
        let n = name(n)?;
        let p = priority(p)?;
        if table.priority(&n).is_some() {
            return Err(format!("QOS {} is given twice", quote(&n)));
        }
        table.rows.push((n, p));
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// high 100, normal 10, low 0: the largest is 100, so a high job's factor is 100 / 100 = 1,
    /// a normal one's 10 / 100 = 0.1, a low one's 0; with NO_NORMAL_QOS, 100, 10 and 0. A job
    /// the log gives no QOS runs in normal (0.1); one in a QOS the file lacks gets 0.
    #[test]
    fn a_factor_is_the_priority_over_the_largest() {
        let t = parse("Name|Priority\nnormal|10\nhigh|100\nlow|0\n", "q").unwrap();
        assert_eq!(t.max(), 100);
        assert_eq!(t.factor(Some("high"), true), 1.0);
        assert_eq!(t.factor(Some("normal"), true), 0.1);
        assert_eq!(t.factor(Some("low"), true), 0.0);
        assert_eq!(t.factor(None, true), 0.1);
        assert_eq!(t.factor(Some("debug"), true), 0.0);
        assert_eq!(t.factor(Some("high"), false), 100.0);
        assert_eq!(t.factor(Some("normal"), false), 10.0);
        // Every priority 0: every factor 0 (Slurm sets no norm_priority then).
        let zero = parse("normal|0\n", "q").unwrap();
        assert_eq!(zero.factor(None, true), 0.0);
    }

    #[test]
    fn the_file_reads_with_or_without_its_header() {
        let bare = parse("normal|10\nhigh|100\n", "q").unwrap();
        let head = parse("Name|Priority\nnormal|10\nhigh|100\n", "q").unwrap();
        assert_eq!(bare, head);
        let other = parse(
            "Priority|Name|Flags\n10|normal|\n100|high|DenyOnLimit\n",
            "q",
        )
        .unwrap();
        assert_eq!(other, head);
        // A file of Name and Priority alone (the qos runs' qos.txt) has no limits.
        assert!(head.limits.is_empty());
        assert_eq!(head.key_text(), "(normal:10,high:100)");
    }

    /// The qoslimits runs' file: normal MaxJobsPU=2, high MaxTRESPU=cpu=16, low GrpTRES=cpu=12
    /// and GrpJobs=3; the priorities read as before.
    #[test]
    fn the_limits_read_from_their_columns() {
        let t = parse(
            "Name|Priority|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|Flags\n\
             normal|10|2|||||\nhigh|100||cpu=16||||\nlow|0|||cpu=12|3|01:00:00|DenyOnLimit\n\
             debug|5||||||\n",
            "qos.txt",
        )
        .unwrap();
        assert_eq!(t.rows.len(), 4);
        assert_eq!(t.priority("high"), Some(100));
        assert_eq!(t.limits_of("normal").unwrap().max_jobs_pu, Some(2));
        assert_eq!(
            t.limits_of("high").unwrap().max_tres_pu,
            [Some(16), None, None, None]
        );
        let low = t.limits_of("low").unwrap();
        assert_eq!(low.grp_tres, [Some(12), None, None, None]);
        assert_eq!((low.grp_jobs, low.max_wall), (Some(3), Some(3600)));
        assert!(t.limits_of("debug").is_none());
        assert_eq!(
            parse("Name|Priority|GrpJobs\nlow|0|many\n", "q").unwrap_err(),
            "q:2: GrpJobs: \"many\" is not a whole number"
        );
    }

    /// The usage run's file (format=Name,Priority,UsageFactor,...,GrpTRESMins,GrpTRESRunMins,
    /// MaxTRESMins,Flags): double charged twice, half half with MaxTRESMins=cpu=64; normal's
    /// 1.000000 is the default (not kept); a file without the column, every QOS 1.
    #[test]
    fn usage_factors_and_minutes_limits_read() {
        let t = parse(
            "Name|Priority|UsageFactor|MaxJobsPU|MaxTRESPU|GrpTRES|GrpJobs|MaxWall|GrpTRESMins|\
             GrpTRESRunMins|MaxTRESMins|Flags\n\
             normal|0|1.000000||||||||||\n\
             double|0|2.000000||||||cpu=500||||\n\
             half|0|0.500000||||||||cpu=64||\n\
             free|0|0.000000||||||||||\n",
            "qos.txt",
        )
        .unwrap();
        assert_eq!(t.usage_factor("normal"), 1.0);
        assert_eq!(t.usage_factor("double"), 2.0);
        assert_eq!(t.usage_factor("half"), 0.5);
        assert_eq!(t.usage_factor("free"), 0.0);
        assert_eq!(t.usage_factor("debug"), 1.0);
        assert_eq!(t.usage_factors.len(), 3);
        let double = t.limits_of("double").unwrap();
        assert_eq!(double.grp_tres_mins, [Some(500), None, None, None]);
        assert_eq!(double.text(), "GrpTRESMins=cpu=500");
        let half = t.limits_of("half").unwrap();
        assert_eq!(half.max_tres_mins, [Some(64), None, None, None]);
        assert!(t.limits_of("normal").is_none());
        let old = parse("Name|Priority\nnormal|10\n", "q").unwrap();
        assert!(old.usage_factors.is_empty());
        assert_eq!(
            parse("Name|Priority|UsageFactor\nlow|0|-1\n", "q").unwrap_err(),
            "q:2: UsageFactor: \"-1\" is not a number of 0 or more"
        );
    }

    /// Every error names the file, the line and the field.
    #[test]
    fn a_bad_file_names_file_line_and_field() {
        let err = |t: &str| parse(t, "qos.txt").unwrap_err();
        assert_eq!(
            err("Name|Priority\nnormal|10\nhigh|lots\n"),
            "qos.txt:3: Priority: \"lots\" is not a whole number from 0 to 4294967295"
        );
        assert_eq!(
            err("Name|Priority\nnormal|-1\n").split(": ").nth(1),
            Some("Priority")
        );
        assert_eq!(
            err("Name|Priority\nnormal\n"),
            "qos.txt:2: Priority: missing"
        );
        assert_eq!(err("Name|Priority\n|5\n").split(": ").nth(1), Some("Name"));
        assert_eq!(
            err("Name|Priority\nhigh|1\nhigh|2\n"),
            "qos.txt:3: Name: QOS \"high\" is listed twice"
        );
        assert!(
            err("Name|MaxWall\nnormal|1\n").starts_with("qos.txt:1: the header names no priority")
        );
        assert!(err("\n").starts_with("qos.txt: empty"));
        // An sshare file given instead: its header line is neither a header nor a QOS line.
        assert_eq!(
            err("Account|User|RawShares|NormShares|RawUsage\nroot||||0\n"),
            "qos.txt:1: Priority: \"User\" is not a whole number from 0 to 4294967295 (the first line \
             names no Name and Priority header and is no QOS line either: expected the output of \
             sacctmgr show qos format=Name,Priority -P)"
        );
        // Past the first line, a headerless file's errors stay as they were.
        assert_eq!(
            err("normal|10\nhigh|lots\n"),
            "qos.txt:2: Priority: \"lots\" is not a whole number from 0 to 4294967295"
        );
    }

    #[test]
    fn the_key_takes_a_list() {
        let t = parse_key("(high:1000, normal=10)").unwrap();
        assert_eq!(t.rows, vec![("high".into(), 1000), ("normal".into(), 10)]);
        assert_eq!(t.key_text(), "(high:1000,normal:10)");
        assert_eq!(parse_key("high:5").unwrap().key_text(), "high:5");
        assert_eq!(parse_key("none").unwrap(), QosTable::default());
        assert!(parse_key("(high)").is_err());
        assert!(parse_key("(high:x)").is_err());
        assert!(parse_key("(high:1,high:2)").is_err());
    }
}
