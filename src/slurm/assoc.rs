//! Association limits as `sacctmgr show assoc format=Cluster,Account,User,Partition,ParentName,
//! Share,GrpJobs,GrpTRES,MaxJobs,MaxTRES,MaxWall -P` prints them (Slurm 22.05): one row per
//! association, an account's (`User` empty) or a user's in an account. The `slurm` policy holds
//! a job back by them as `acct_policy.c` does (`policy/rule/slurm/assoc_use.rs`; docs/slurm.md
//! "Association limits").
//!
//! ```text
//! Cluster|Account|User|Partition|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxTRES|MaxWall
//! schedlab|root||||1|||||
//! schedlab|chem|||root|30|3||||
//! schedlab|chem|carol|||1||cpu=12,mem=16000M|||
//! schedlab|eng|||root|10|||1|cpu=8|00:03:00
//! schedlab|eng|frank|||1|||1|cpu=8|00:03:00
//! ```
//!
//! sacctmgr prints a user's association with the `MaxJobs`, `MaxTRES` and `MaxWall` it
//! inherits from its account (slurmdbd propagates them; `WOPLimits` would leave them out), as
//! `acct_policy.c` reads them: the Max limits of the job's own association only, the Grp
//! limits of it and every parent. The fields are found by the header's names (any order; only
//! `Account` and `User` are needed). An account's parent is its `ParentName` (`root` when the
//! file has no such column); a user's, its account. Rows naming a partition are left out (the
//! model has no per-partition association).

use super::accrue::AccrueLimits;
use super::qos_limits::{self, TresLimit};
use crate::quote::quote;
use crate::Time;

/// One association's limits (each `None`: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct AssocLimits {
    /// `GrpJobs`: running jobs of the association and its children (`grp_jobs`).
    pub grp_jobs: Option<u32>,
    /// `GrpTRES`: TRES of the running jobs of the association and its children (`grp_tres`).
    pub grp_tres: TresLimit,
    /// `MaxJobs`: running jobs of the association itself (`max_jobs`).
    pub max_jobs: Option<u32>,
    /// `MaxTRES` (`MaxTRESPerJob`): TRES of one job (`max_tres_pj`).
    pub max_tres: TresLimit,
    /// `MaxWall` (`MaxWallDurationPerJob`): a job's time limit, seconds (`max_wall_pj`).
    pub max_wall: Option<Time>,
    /// `GrpTRESMins`: TRES-minutes of the decayed usage of the association and its children
    /// (`grp_tres_mins`).
    pub grp_tres_mins: TresLimit,
    /// `GrpTRESRunMins`: TRES-minutes left of the limits of the running jobs of the
    /// association and its children (`grp_tres_run_mins`).
    pub grp_tres_run_mins: TresLimit,
    /// `MaxTRESMins` (`MaxTRESMinsPerJob`): TRES-minutes of one job's limit (`max_tres_mins`).
    pub max_tres_mins: TresLimit,
}

impl AssocLimits {
    /// True when it limits nothing.
    pub fn is_none(&self) -> bool {
        *self == Self::default()
    }

    /// The limits as the file's columns give them, for a note: `GrpJobs=3 MaxWall=3`.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        if let Some(n) = self.grp_jobs {
            out.push(format!("GrpJobs={n}"));
        }
        if let Some(t) = qos_limits::tres_text(&self.grp_tres) {
            out.push(format!("GrpTRES={t}"));
        }
        if let Some(n) = self.max_jobs {
            out.push(format!("MaxJobs={n}"));
        }
        if let Some(t) = qos_limits::tres_text(&self.max_tres) {
            out.push(format!("MaxTRES={t}"));
        }
        if let Some(w) = self.max_wall {
            out.push(format!("MaxWall={}", w / 60));
        }
        qos_limits::mins_text(
            &mut out,
            &self.grp_tres_mins,
            &self.grp_tres_run_mins,
            &self.max_tres_mins,
        );
        out.join(" ")
    }
}

/// What the policy reads of `table`, for a note: `the limits of 3 associations (phys
/// GrpTRES=cpu=16; bob in phys MaxJobs=1; ...; held when slurm.conf's AccountingStorageEnforce
/// names limits)`, the first eight named.
pub fn summary(table: &AssocTable) -> String {
    let with: Vec<&Assoc> = table.rows.iter().filter(|a| !a.limits.is_none()).collect();
    let named: Vec<String> = (with.iter().take(8))
        .map(|a| match &a.user {
            Some(u) => format!("{u} in {} {}", a.account, a.limits.text()),
            None => format!("{} {}", a.account, a.limits.text()),
        })
        .collect();
    let more = with.len().saturating_sub(8);
    format!(
        "the limits of {} association{} ({}{}; held when slurm.conf's AccountingStorageEnforce \
         names limits)",
        with.len(),
        if with.len() == 1 { "" } else { "s" },
        named.join("; "),
        if more > 0 {
            format!("; {more} more")
        } else {
            String::new()
        }
    )
}

/// One association row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Assoc {
    /// `Account`.
    pub account: String,
    /// `User` (`None`: the account's own association).
    pub user: Option<String>,
    /// The parent account (`None`: the root).
    pub parent: Option<String>,
    pub limits: AssocLimits,
    /// `GrpJobsAccrue` and `MaxJobsAccrue`: how many of its waiting jobs accrue age at once
    /// (`accrue.rs`; they hold no job back).
    pub accrue: AccrueLimits,
    /// The file's line.
    pub line: usize,
}

/// A site's associations, in the file's order.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct AssocTable {
    pub rows: Vec<Assoc>,
}

impl AssocTable {
    /// The index of the association of `user` in `account` (`None`: the account's own).
    pub fn find(&self, account: &str, user: Option<&str>) -> Option<usize> {
        self.rows
            .iter()
            .position(|a| a.account == account && a.user.as_deref() == user)
    }

    /// The index of association `k`'s parent, when the table has it.
    pub fn parent_of(&self, k: usize) -> Option<usize> {
        let a = &self.rows[k];
        match &a.user {
            Some(_) => self.find(&a.account, None),
            None => a.parent.as_deref().and_then(|p| self.find(p, None)),
        }
    }

    /// The association a job of user `user` in `account` is charged to: its user's in that
    /// account, else the account's own; a job naming no account, its user's first
    /// association in the file.
    pub fn of_job(&self, user: &str, account: &str) -> Option<usize> {
        if account.is_empty() {
            return (self.rows.iter()).position(|a| a.user.as_deref() == Some(user));
        }
        self.find(account, Some(user))
            .or_else(|| self.find(account, None))
    }

    /// Association `k`'s walk: itself, then each parent up to the root.
    pub fn walk(&self, k: usize) -> Vec<usize> {
        let mut w = vec![k];
        while let Some(p) = self.parent_of(*w.last().unwrap_or(&k)) {
            if w.contains(&p) || w.len() > self.rows.len() {
                break;
            }
            w.push(p);
        }
        w
    }

    /// True when some association has a limit.
    pub fn has_limits(&self) -> bool {
        self.rows.iter().any(|a| !a.limits.is_none())
    }
}

/// Reads `sacctmgr show assoc ... -P` output from `file`; errors name the file, line and field.
pub fn parse(text: &str, file: &str) -> Result<AssocTable, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty());
    let Some((hl, head)) = lines.next() else {
        return Ok(AssocTable::default());
    };
    let names: Vec<String> = head
        .trim_end_matches('\r')
        .split('|')
        .map(|n| n.trim().to_ascii_lowercase())
        .collect();
    let col = |alts: &[&str]| names.iter().position(|x| alts.contains(&x.as_str()));
    let need = |n: &str| {
        col(&[&n.to_ascii_lowercase()]).ok_or_else(|| {
            format!(
                "{file}:{}: the header names no {n} field (sacctmgr show assoc \
                 format=Cluster,Account,User,Partition,ParentName,Share,GrpJobs,GrpTRES,MaxJobs,\
                 MaxTRES,MaxWall -P)",
                hl + 1
            )
        })
    };
    let (ca, cu) = (need("Account")?, need("User")?);
    let cpart = col(&["partition"]);
    let cparent = col(&["parentname", "par name"]);
    let cgj = col(&["grpjobs"]);
    let cgt = col(&["grptres"]);
    let cmj = col(&["maxjobs"]);
    let cmt = col(&["maxtres", "maxtresperjob", "maxtrespj"]);
    let cmw = col(&["maxwall", "maxwalldurationperjob", "maxwallpj"]);
    let cgm = col(&["grptresmins"]);
    let cgr = col(&["grptresrunmins"]);
    let cmm = col(&["maxtresmins", "maxtresminsperjob", "maxtresminspj"]);
    let cga = col(&["grpjobsaccrue"]);
    let cma = col(&["maxjobsaccrue"]);
    let mut table = AssocTable::default();
    for (i, l) in lines {
        let line = i + 1;
        let f: Vec<&str> = l.trim_end_matches('\r').split('|').collect();
        let field = |c: Option<usize>| c.and_then(|c| f.get(c).copied()).unwrap_or("").trim();
        let at = |name: &'static str| move |e: String| format!("{file}:{line}: {name}: {e}");
        let account = field(Some(ca));
        if account.is_empty() {
            return Err(format!("{file}:{line}: Account: empty"));
        }
        if !field(cpart).is_empty() {
            continue;
        }
        let user = Some(field(Some(cu)))
            .filter(|u| !u.is_empty())
            .map(String::from);
        let parent = match field(cparent) {
            "" if cparent.is_none() && account != "root" => Some("root".to_string()),
            "" => None,
            p => Some(p.to_string()),
        };
        let limits = AssocLimits {
            grp_jobs: qos_limits::parse_count(field(cgj)).map_err(at("GrpJobs"))?,
            grp_tres: qos_limits::parse_tres(field(cgt)).map_err(at("GrpTRES"))?,
            max_jobs: qos_limits::parse_count(field(cmj)).map_err(at("MaxJobs"))?,
            max_tres: qos_limits::parse_tres(field(cmt)).map_err(at("MaxTRES"))?,
            max_wall: qos_limits::parse_wall(field(cmw)).map_err(at("MaxWall"))?,
            grp_tres_mins: qos_limits::parse_tres(field(cgm)).map_err(at("GrpTRESMins"))?,
            grp_tres_run_mins: qos_limits::parse_tres(field(cgr)).map_err(at("GrpTRESRunMins"))?,
            max_tres_mins: qos_limits::parse_tres(field(cmm)).map_err(at("MaxTRESMins"))?,
        };
        let accrue = AccrueLimits {
            grp: qos_limits::parse_count(field(cga)).map_err(at("GrpJobsAccrue"))?,
            max: qos_limits::parse_count(field(cma)).map_err(at("MaxJobsAccrue"))?,
            max_pa: None,
        };
        if table.find(account, user.as_deref()).is_some() {
            let who = user
                .as_deref()
                .map_or(String::new(), |u| format!("user {u} in "));
            return Err(format!(
                "{file}:{line}: Account: {who}account {} is listed twice",
                quote(account)
            ));
        }
        table.rows.push(Assoc {
            account: account.to_string(),
            user,
            parent: parent.filter(|_| field(Some(cu)).is_empty()),
            limits,
            accrue,
            line,
        });
    }
    Ok(table)
}

#[cfg(test)]
mod tests {
    use super::*;

    const FILE: &str =
        "Cluster|Account|User|Partition|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxTRES|MaxWall
schedlab|root||||1|||||
schedlab|root|root|||1|||||
schedlab|bio|||root|20||gres/gpu=2,node=3|||
schedlab|chem|||root|30|3||||
schedlab|chem|carol|||1||cpu=12,mem=16000M|||
schedlab|eng|||root|10|||1|cpu=8|00:03:00
schedlab|eng|frank|||1|||1|cpu=8|00:03:00
schedlab|eng|frank|batch||1|||5|||
";

    #[test]
    fn rows_read_as_sacctmgr_prints_them() {
        let t = parse(FILE, "assoc.txt").unwrap();
        assert_eq!(t.rows.len(), 7, "the partition's row left out");
        let carol = t.find("chem", Some("carol")).unwrap();
        assert_eq!(
            t.rows[carol].limits.grp_tres,
            [Some(12), Some(16000), None, None]
        );
        let chem = t.parent_of(carol).unwrap();
        assert_eq!(t.rows[chem].limits.grp_jobs, Some(3));
        assert_eq!(t.rows[t.parent_of(chem).unwrap()].account, "root");
        let frank = &t.rows[t.find("eng", Some("frank")).unwrap()].limits;
        assert_eq!(frank.max_jobs, Some(1));
        assert_eq!(frank.max_tres, [Some(8), None, None, None]);
        assert_eq!(frank.max_wall, Some(180));
        let bio = &t.rows[t.find("bio", None).unwrap()].limits;
        assert_eq!(bio.grp_tres, [None, None, Some(3), Some(2)]);
        assert!(t.has_limits());
        assert_eq!(
            summary(&t),
            "the limits of 5 associations (bio GrpTRES=node=3,gres/gpu=2; chem GrpJobs=3; carol \
             in chem GrpTRES=cpu=12,mem=16000; eng MaxJobs=1 MaxTRES=cpu=8 MaxWall=3; frank in \
             eng MaxJobs=1 MaxTRES=cpu=8 MaxWall=3; held when slurm.conf's \
             AccountingStorageEnforce names limits)"
        );
        assert_eq!(t.parent_of(t.find("root", None).unwrap()), None);
    }

    #[test]
    fn errors_name_the_file_line_and_field() {
        let e = parse("Account|User|MaxJobs\nphys||two\n", "a.txt").unwrap_err();
        assert_eq!(e, "a.txt:2: MaxJobs: \"two\" is not a whole number");
        let e = parse("Account|User|GrpTRES\nphys||cpu\n", "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:2: GrpTRES: "), "{e}");
        let e = parse("Account|User|MaxWall\nphys|bob|x\n", "a.txt").unwrap_err();
        assert!(e.starts_with("a.txt:2: MaxWall: "), "{e}");
        let e = parse("Name|Priority\nnormal|10\n", "a.txt").unwrap_err();
        assert!(
            e.starts_with("a.txt:1: the header names no Account field"),
            "{e}"
        );
        let e = parse("Account|User\nphys|bob\nphys|bob\n", "a.txt").unwrap_err();
        assert!(e.contains("a.txt:3: Account: user bob in account \"phys\" is listed twice"));
    }

    /// The usage run's file: chem GrpTRESRunMins=cpu=100, eng MaxTRESMins=cpu=24 (frank's
    /// association inherits it), erin GrpTRESMins=cpu=50.
    #[test]
    fn minutes_limits_read() {
        let t = parse(
            "Cluster|Account|User|Partition|ParentName|Share|GrpJobs|GrpTRES|MaxJobs|MaxTRES|\
             MaxWall|GrpTRESMins|GrpTRESRunMins|MaxTRESMins\n\
             schedlab|root||||1||||||||\n\
             schedlab|bio|||root|20||||||||\n\
             schedlab|bio|erin|||1||||||cpu=50|||\n\
             schedlab|chem|||root|30|||||||cpu=100||\n\
             schedlab|eng|||root|10||||||||cpu=24\n\
             schedlab|eng|frank|||1||||||||cpu=24\n",
            "assoc.txt",
        )
        .unwrap();
        let l = |a: &str, u: Option<&str>| t.rows[t.find(a, u).unwrap()].limits;
        assert_eq!(l("bio", Some("erin")).grp_tres_mins[0], Some(50));
        assert_eq!(l("chem", None).grp_tres_run_mins[0], Some(100));
        assert_eq!(l("eng", Some("frank")).max_tres_mins[0], Some(24));
        assert_eq!(l("chem", None).text(), "GrpTRESRunMins=cpu=100");
        assert!(l("bio", None).is_none());
    }

    /// Without a ParentName column an account's parent is the root.
    #[test]
    fn accounts_hang_from_the_root_without_parent_names() {
        let t = parse("Account|User|GrpJobs\nroot||\nphys||2\nphys|bob|\n", "a").unwrap();
        let bob = t.find("phys", Some("bob")).unwrap();
        let phys = t.parent_of(bob).unwrap();
        assert_eq!(t.rows[t.parent_of(phys).unwrap()].account, "root");
    }
}
