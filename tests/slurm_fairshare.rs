//! Fair Tree and the classic fairshare formula against hand-worked cases and against the
//! `FairShare`, `LevelFS` and `EffectvUsage` columns a real Slurm 22.05 printed (tests/data/slurm/*/run*/
//! sshare-*.txt: `sshare -a -l -P` before the first job and after the last).

use schedlab::slurm::fairshare::{
    classic, classic_factor, classic_norm_shares, classic_ue, fair_tree,
};
use schedlab::slurm::sshare::{self, Shares};
use schedlab::slurm::tree::Tree;
use std::path::Path;

fn tree_of(path: &Path) -> (Vec<sshare::Row>, Tree) {
    let text = std::fs::read_to_string(path).unwrap();
    let file = path.display().to_string();
    let rows = sshare::parse(&text, &file).unwrap();
    let tree = Tree::from_sshare(&rows, &file).unwrap();
    (rows, tree)
}

fn factor_of(rows: &[sshare::Row], f: &[f64], account: &str, user: &str) -> f64 {
    let i = rows
        .iter()
        .position(|r| r.account == account && r.user.as_deref() == Some(user))
        .unwrap();
    f[i]
}

/// fairshare-1/run1 after its last job, worked by hand from the RawShares and RawUsage
/// columns. Root's children (101 shares): LevelFS = (shares / 101) / (usage / 5205):
/// root's own user 1/101 over no usage = inf; bio 0.198 / (519 / 5205 = 0.0997) = 1.98;
/// phys 0.396 / 0.429 = 0.923; chem 0.297 / 0.352 = 0.844; eng 0.099 / 0.119 = 0.831.
/// Inside bio (usage 519): alice 0.5 / (134 / 519) = 1.94, erin 0.5 / (385 / 519) = 0.67;
/// phys (2233): bob 0.5 / (171 / 2233) = 6.5, alice 0.5 / (2061 / 2233) = 0.54; chem (1833):
/// dave 0.5 / (60 / 1833) = 15.3, carol 0.5 / (1773 / 1833) = 0.52; eng: frank 1 / 1 = 1.
/// Walked depth first in that order, the 8 user associations take ranks 8 down to 1; the
/// factor is rank / 8.
#[test]
fn fair_tree_by_hand_on_a_real_end_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let (rows, tree) = tree_of(&root.join("fairshare-1/run1/sshare-end.txt"));
    let (f, _) = fair_tree(&tree);
    let expect = [
        ("root", "root", 8),
        ("bio", "alice", 7),
        ("bio", "erin", 6),
        ("phys", "bob", 5),
        ("phys", "alice", 4),
        ("chem", "dave", 3),
        ("chem", "carol", 2),
        ("eng", "frank", 1),
    ];
    for (a, u, rank) in expect {
        assert_eq!(factor_of(&rows, &f, a, u), rank as f64 / 8.0, "{a}/{u}");
    }
}

/// Every committed sshare dump: the factor of every user association equals Slurm's FairShare
/// column, and every LevelFS Slurm printed is matched within the rounding of RawUsage.
#[test]
fn fair_tree_equals_slurms_fairshare_column() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let mut checked = 0;
    for w in ["fairshare-1", "smallbf-2", "gpu-3"] {
        for run in ["run1", "run2"] {
            for when in ["start", "end"] {
                let path = root.join(format!("{w}/{run}/sshare-{when}.txt"));
                let (rows, tree) = tree_of(&path);
                let (f, level) = fair_tree(&tree);
                for (i, r) in rows.iter().enumerate() {
                    if let (Some(_), Some(fs)) = (&r.user, r.fairshare) {
                        assert!(
                            (f[i] - fs).abs() < 1e-6,
                            "{}: {}/{:?}: model {} slurm {fs}",
                            path.display(),
                            r.account,
                            r.user,
                            f[i]
                        );
                        checked += 1;
                    }
                    if let Some(l) = r.level_fs {
                        // sshare prints RawUsage cut to a whole number: LevelFS is known
                        // to within one unit of the usage and of each of the parent's
                        // children (whose sum is the parent's usage here).
                        let n = &tree.nodes[i];
                        let (parent, kids) = n.parent.map_or((1.0, 1.0), |p| {
                            let p = &tree.nodes[p];
                            (p.usage, p.children.len() as f64)
                        });
                        let rel = 1.0 / n.usage.max(1.0) + kids / parent.max(1.0) + 1e-6;
                        let ok = if l.is_infinite() {
                            level[i].is_infinite()
                        } else {
                            (level[i] - l).abs() <= rel * l
                        };
                        assert!(
                            ok,
                            "{}: {} LevelFS {} vs {l}",
                            path.display(),
                            r.account,
                            level[i]
                        );
                    }
                }
            }
        }
    }
    assert!(checked >= 96, "{checked}");
}

/// The rows and tree of an sshare text.
fn parse_tree(text: &str) -> (Vec<sshare::Row>, Tree) {
    let rows = sshare::parse(text, "t").unwrap();
    let tree = Tree::from_sshare(&rows, "t").unwrap();
    (rows, tree)
}

/// Ties: users whose LevelFS equals the previous sibling's share its rank while the counter
/// still counts them; an account tied with the user before it passes the tie to its first
/// child. Root has user r (usage 10) and account a (usage 10), both 1 share: LevelFS 0.5 /
/// (10 / 20) = 1 each, r first (a user before an account). In a, u2 (no usage: inf) then u1
/// (0.5 / (10 / 10) = 0.5). Ranks of 3: r 3; u2 tied through a, 3; u1 takes the counter, 1.
#[test]
fn fair_tree_ties_share_a_rank() {
    let (rows, tree) = parse_tree(
        "Account|User|RawShares|RawUsage\nroot|||20\n root|r|1|10\n a||1|10\n  a|u1|1|10\n  a|u2|1|0\n",
    );
    let (f, level) = fair_tree(&tree);
    assert_eq!((level[1], level[2]), (1.0, 1.0));
    assert_eq!(factor_of(&rows, &f, "root", "r"), 1.0);
    assert_eq!(factor_of(&rows, &f, "a", "u2"), 1.0);
    assert_eq!(factor_of(&rows, &f, "a", "u1"), 1.0 / 3.0);
    // `parent` shares: the user gets an infinite LevelFS and ranks first in its account (u1:
    // 1 / (10 / 20) = 2).
    let (rows, tree) = parse_tree(
        "Account|User|RawShares|RawUsage\nroot|||20\n a||1|20\n  a|u1|1|10\n  a|u2|parent|10\n",
    );
    assert_eq!(rows[3].shares, Shares::Parent);
    let (f, _) = fair_tree(&tree);
    assert_eq!((f[3], f[2]), (1.0, 0.5));
}

/// The classic formula on a two-level tree, worked by hand: root (usage 100) has accounts a
/// (3 shares, usage 75) and b (1 share, usage 25); a has users x (1 share, usage 75) and y (1
/// share, no usage); b has z. NormShares: a 0.75, b 0.25, x = y = 0.375, z 0.25. UE: an
/// account under root takes its normalized usage (`_set_assoc_usage_efctv`: `fs_assoc_ptr`
/// is root), a 0.75, b 0.25; below, `UA + (UE_parent - UA) x S / S_siblings`: x = 0.75 +
/// (0.75 - 0.75) x 1/2 = 0.75, y = 0 + 0.75 / 2 = 0.375, z = 0.25 + (0.25 - 0.25) x 1 = 0.25.
/// Factors 2^(-UE / NormShares): x 2^-2, y 2^-1, z 2^-1, a 2^-1, b 2^-1. (Before, the model
/// gave root's children `UA + (1 - UA) x S / S_siblings`, as the classic formula's page
/// reads: a 0.9375, b 0.4375, x 2^-2.25.)
#[test]
fn classic_by_hand() {
    let (_, tree) = parse_tree(
        "Account|User|RawShares|RawUsage\nroot|||100\n a||3|75\n  a|x|1|75\n  a|y|1|0\n b||1|25\n  b|z|1|25\n",
    );
    let f = classic(&tree, 1.0);
    let close = |a: f64, b: f64| (a - b).abs() < 1e-12;
    assert!(close(f[2], 0.25), "{}", f[2]);
    assert!(close(f[3], 0.5), "{}", f[3]);
    assert!(close(f[5], 0.5), "{}", f[5]);
    assert!(close(f[1], 0.5) && close(f[4], 0.5), "{f:?}");
    // Dampening divides the exponent.
    assert!(close(classic(&tree, 5.0)[2], 2f64.powf(-2.0 / 5.0)));
}

/// The columns of an sshare dump: (NormShares, NormUsage, EffectvUsage, FairShare) per row
/// (NormUsage empty for root: 0).
fn columns(path: &Path) -> Vec<[f64; 4]> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let head: Vec<&str> = lines.next().unwrap().split('|').collect();
    let at = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let idx = [
        at("NormShares"),
        at("NormUsage"),
        at("EffectvUsage"),
        at("FairShare"),
    ];
    lines
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            idx.map(|i| f[i].parse().unwrap_or(0.0))
        })
        .collect()
}

/// limits-5/run1 after its last job (`PriorityFlags=NO_FAIR_TREE`), worked by hand from the
/// sshare columns. Root's usage 6247; chem's effective usage 0.275736 equals its NormUsage
/// (an account under root: UE = UA, as of the start of the last period that counted usage,
/// not RawUsage's 2285 / 6247 = 0.3658 now: the accounts are computed before the period's
/// new usage, the users when sshare asks). carol: UA = 2285 / 6247 = 0.36578, UE = 0.36578 +
/// (0.275736 - 0.36578) x 1/2 = 0.32076 (Slurm 0.320754), NormShares 30/101 x 1/2 =
/// 0.148515, factor 2^(-0.32076 / 0.148515) = 2^-2.1598 = 0.22379 (0.223797); dave: UA 0,
/// UE 0.275736 / 2 = 0.137868, 2^-0.92831 = 0.52547 (0.525473); frank, alone in eng: UE =
/// eng's 0.196090, NormShares 10/101, 2^-1.98051 = 0.25340 (0.253400).
#[test]
fn classic_by_hand_on_a_real_end_state() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let path = root.join("limits-5/run1/sshare-end.txt");
    let (rows, tree) = tree_of(&path);
    let cols = columns(&path);
    let mut ue = vec![0.0; rows.len()];
    ue[0] = 1.0;
    for (i, r) in rows.iter().enumerate().skip(1) {
        if r.user.is_none() {
            ue[i] = cols[i][1];
        }
    }
    let ns = classic_norm_shares(&tree);
    let fs = |a: &str, u: &str| {
        let i = rows
            .iter()
            .position(|r| r.account == a && r.user.as_deref() == Some(u))
            .unwrap();
        classic_factor(classic_ue(&tree, i, &ue), ns[i], 1.0)
    };
    let close = |a: f64, b: f64| (a - b).abs() < 2e-4;
    assert!(
        close(fs("chem", "carol"), 0.22379),
        "{}",
        fs("chem", "carol")
    );
    assert!(close(fs("chem", "dave"), 0.52547), "{}", fs("chem", "dave"));
    assert!(close(fs("eng", "frank"), 0.25340), "{}", fs("eng", "frank"));
}

/// Both limits-5 runs' sshare dumps against the classic formula: NormShares equal the
/// model's; at the start (no usage) every FairShare is 1 (root's 2^-1); after the last job
/// each account under root has EffectvUsage = NormUsage (taken at the last period's start)
/// and the FairShare of that UE, and each user the UE and FairShare the model computes from
/// its NormUsage and its account's UE. A user's NormUsage is its RawUsage now over root's
/// when sshare computed it (no job of the user waited at the last period), else the one
/// computed at that period from the usage the job list had added by its first waiting job
/// and kept since (run1's phys/alice: 0.454787, against 2604 / 6247 = 0.417 now).
#[test]
fn classic_equals_slurms_fairshare_column() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/slurm");
    let mut checked = 0;
    for run in ["run1", "run2"] {
        for when in ["start", "end"] {
            let path = root.join(format!("limits-5/{run}/sshare-{when}.txt"));
            let (rows, tree) = tree_of(&path);
            let cols = columns(&path);
            let ns = classic_norm_shares(&tree);
            let mut ue = vec![0.0; rows.len()];
            ue[0] = 1.0;
            for (i, r) in rows.iter().enumerate().skip(1) {
                if r.user.is_none() {
                    assert_eq!(cols[i][1], cols[i][2], "{}: {}", path.display(), r.account);
                    ue[i] = cols[i][1];
                }
            }
            let at_start = classic(&tree, 1.0);
            let mut tree = tree;
            for (i, r) in rows.iter().enumerate() {
                if r.user.is_some() {
                    tree.nodes[i].usage = cols[i][1] * tree.nodes[0].usage;
                }
            }
            for (i, r) in rows.iter().enumerate() {
                let who = format!("{}: {}/{:?}", path.display(), r.account, r.user);
                assert!((ns[i] - cols[i][0]).abs() < 1e-6, "{who}");
                let (model_ue, f) = if r.user.is_some() {
                    let u = classic_ue(&tree, i, &ue);
                    (u, classic_factor(u, ns[i], 1.0))
                } else {
                    (ue[i], classic_factor(ue[i], ns[i], 1.0))
                };
                let tol = 2e-6;
                assert!((model_ue - cols[i][2]).abs() < tol, "{who}: UE {model_ue}");
                assert!((f - cols[i][3]).abs() < tol, "{who}: {f} vs {}", cols[i][3]);
                if when == "start" {
                    assert!((at_start[i] - cols[i][3]).abs() < 1e-6, "{who}");
                }
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 4 * 13);
}

#[test]
fn sshare_errors_name_file_line_and_field() {
    let e = sshare::parse(
        "Account|User|RawShares|RawUsage\nroot|||0\n a||x|0\n",
        "s.txt",
    )
    .unwrap_err();
    assert!(e.contains("s.txt:3: RawShares"), "{e}");
    let e = sshare::parse("Account|User\nroot|\n", "s.txt").unwrap_err();
    // Named as sshare prints it (it said "no rawshares field").
    assert!(
        e.contains("s.txt:1: the header names no RawShares field"),
        "{e}"
    );
    let e = sshare::parse("Account|User|RawShares|RawUsage\n a||1|0\n", "s.txt").unwrap_err();
    assert!(e.contains("root"), "{e}");
}
