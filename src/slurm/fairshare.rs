//! The fairshare factor of every user association, from the tree's shares and usage: Fair Tree
//! (Slurm's default since 19.05) and the classic formula (`PriorityFlags=NO_FAIR_TREE`).
//!
//! **Fair Tree** (fair_tree.c, doc/html/fair_tree.shtml): at each level of the tree, every
//! association gets `LevelFS = S / U`, `S` its shares over its siblings' (`parent` shares left
//! out), `U` its usage over its parent's (0 when the parent has none, so LevelFS is infinite);
//! `S = 0` gives 0; a user with `parent` shares gets infinity. Siblings are sorted by LevelFS,
//! highest first, a user before an account on equal values (a stable sort: otherwise in the
//! order the tree lists them), and walked depth first: each user met takes the next rank, from
//! the number of user associations down; a user whose LevelFS equals the previous sibling's
//! (or the first child of an account tied with its previous sibling) keeps the previous rank.
//! The factor is rank / number of user associations. As in 22.05 (and later versions),
//! accounts that tie are not merged: `_count_tied_accounts` stops at the first account that
//! follows, so each tied account is walked on its own, its first child carrying the tie.
//!
//! **Classic** (priority_multifactor.c `_set_usage_efctv`, `priority_p_calc_fs_factor`;
//! doc/html/priority_multifactor.shtml "The Fair-share Factor"): normalized shares are the
//! product down the path of shares over the level's shares; normalized usage is usage over
//! root's (at most 1); effective usage `UE = UA + (UE_parent - UA) x S / S_siblings` with root's
//! UE 1; the factor is `2^(-(UE / NormShares) / FairShareDampeningFactor)`.

use super::sshare::Shares;
use super::tree::Tree;

/// Slurm's `NO_VAL` as a LevelFS (accounts with `parent` shares; the "previous" LevelFS
/// before the first sibling).
const NO_VAL: f64 = 4_294_967_294.0;

/// Fair Tree: the factor of each association (0 for accounts), and each one's LevelFS.
pub fn fair_tree(t: &Tree) -> (Vec<f64>, Vec<f64>) {
    let n = t.nodes.len();
    let mut level_fs = vec![0.0; n];
    let mut factor = vec![0.0; n];
    let count = t.user_count();
    if count == 0 {
        return (factor, level_fs);
    }
    let level = t.all_level_shares();
    for (i, l) in level_fs.iter_mut().enumerate() {
        *l = assoc_level_fs(t, i, level[i]);
    }
    let mut rank = count;
    let mut rnt = count;
    let kids = t.nodes[0].children.clone();
    walk(
        t,
        &kids,
        &level_fs,
        &mut factor,
        count,
        &mut rank,
        &mut rnt,
        false,
    );
    (factor, level_fs)
}

#[allow(clippy::too_many_arguments)]
fn walk(
    t: &Tree,
    siblings: &[usize],
    level_fs: &[f64],
    factor: &mut [f64],
    count: usize,
    rank: &mut usize,
    rnt: &mut usize,
    account_tied: bool,
) {
    let mut sorted = siblings.to_vec();
    sorted.sort_by(|&a, &b| {
        level_fs[b]
            .partial_cmp(&level_fs[a])
            .unwrap_or(std::cmp::Ordering::Equal)
            .then_with(|| t.nodes[b].user.is_some().cmp(&t.nodes[a].user.is_some()))
    });
    let mut prev = NO_VAL;
    for (k, &i) in sorted.iter().enumerate() {
        let tied = if k == 0 && account_tied {
            true
        } else {
            prev == level_fs[i]
        };
        if t.nodes[i].user.is_some() {
            if !tied {
                *rank = *rnt;
            }
            factor[i] = *rank as f64 / count as f64;
            *rnt = rnt.saturating_sub(1);
        } else {
            let kids = &t.nodes[i].children;
            if !kids.is_empty() {
                walk(t, kids, level_fs, factor, count, rank, rnt, tied);
            }
        }
        prev = level_fs[i];
    }
}

/// LevelFS of association `i` whose level holds `level` shares (fair_tree.c
/// `_calc_assoc_fs`).
fn assoc_level_fs(t: &Tree, i: usize, level: u64) -> f64 {
    let a = &t.nodes[i];
    if a.shares == Shares::Parent {
        return if a.user.is_some() {
            f64::INFINITY
        } else {
            NO_VAL
        };
    }
    let parent_usage = a.parent.map_or(0.0, |p| t.nodes[p].usage);
    let u = if parent_usage == 0.0 {
        0.0
    } else {
        a.usage / parent_usage
    };
    let s = match a.shares {
        Shares::Raw(s) if level > 0 => f64::from(s) / level as f64,
        _ => 0.0,
    };
    if s == 0.0 {
        0.0
    } else {
        s / u
    }
}

/// The association whose effective usage and shares association `i`'s are taken from
/// (Slurm's `fs_assoc_ptr`, assoc_mgr.c `_set_assoc_parent_and_user`): its nearest ancestor
/// whose shares are not `parent` (root has raw shares). None for root.
fn fs_parent(t: &Tree, i: usize) -> Option<usize> {
    let mut p = t.nodes[i].parent?;
    while p != 0 && t.nodes[p].shares == Shares::Parent {
        p = t.nodes[p].parent.unwrap_or(0);
    }
    Some(p)
}

/// The classic formula's normalized shares (`_normalize_assoc_shares_traditional`): the
/// product down the path of shares over the level's shares (an association with `parent`
/// shares takes its `fs_parent`'s; a level of no shares gives 0); root's 1.
pub fn classic_norm_shares(t: &Tree) -> Vec<f64> {
    let levels = t.all_level_shares();
    let mut ns = vec![1.0; t.nodes.len()];
    // Parents come before children in `nodes` (the tree is built top down).
    for i in 1..t.nodes.len() {
        let p = t.nodes[i].parent.unwrap_or(0);
        ns[i] = match t.nodes[i].shares {
            Shares::Raw(s) if levels[i] > 0 => ns[p] * f64::from(s) / levels[i] as f64,
            Shares::Raw(_) => 0.0,
            Shares::Parent => ns[fs_parent(t, i).unwrap_or(0)],
        };
    }
    ns
}

/// Association `i`'s effective usage from the usage now (`priority_p_set_assoc_usage`:
/// `set_assoc_usage_norm`, then `_set_assoc_usage_efctv`), `ue` holding its `fs_parent`'s:
/// normalized usage `UA` = usage / root's (0 when root has none, at most 1); under root
/// `UE = UA`; with `parent` shares the `fs_parent`'s UE; else `UA + (UE_parent - UA) x S /
/// S_siblings` (`_set_usage_efctv`; the parent's UE when the level has no shares).
pub fn classic_ue(t: &Tree, i: usize, ue: &[f64]) -> f64 {
    let Some(fp) = fs_parent(t, i) else {
        return 1.0;
    };
    let root = t.nodes[0].usage;
    let ua = if root == 0.0 {
        0.0
    } else {
        (t.nodes[i].usage / root).min(1.0)
    };
    if fp == 0 {
        return ua;
    }
    let level = t.level_shares_of(i);
    match t.nodes[i].shares {
        Shares::Parent => ue[fp],
        _ if level == 0 => ue[fp],
        Shares::Raw(s) => ua + (ue[fp] - ua) * (f64::from(s) / level as f64),
    }
}

/// The accounts' effective usage from the usage now, top down (`_set_children_usage_efctv`,
/// which the decay thread runs at the start of each period); root's 1, users' left at 0
/// (Slurm sets them to `NO_VAL`: a user's is computed when first needed, [`classic_ue`]).
pub fn classic_accounts(t: &Tree) -> Vec<f64> {
    let mut ue = vec![0.0; t.nodes.len()];
    ue[0] = 1.0;
    for i in 1..t.nodes.len() {
        if t.nodes[i].user.is_none() {
            ue[i] = classic_ue(t, i, &ue);
        }
    }
    ue
}

/// The classic factor of effective usage `ue` and normalized shares `ns`
/// (`priority_p_calc_fs_factor`): `2^(-(UE / NormShares) / FairShareDampeningFactor)`, 0
/// without shares.
pub fn classic_factor(ue: f64, ns: f64, damp: f64) -> f64 {
    if ns <= 0.0 {
        0.0
    } else {
        2f64.powf(-(ue / ns) / damp)
    }
}

/// The classic factor of every association, accounts and users alike, all from the usage
/// now (what `sshare` prints after a period when no job waited: the accounts' effective
/// usage of the period, each user's computed from it when sshare asks).
pub fn classic(t: &Tree, damp: f64) -> Vec<f64> {
    let ns = classic_norm_shares(t);
    let mut ue = classic_accounts(t);
    for i in 1..t.nodes.len() {
        if t.nodes[i].user.is_some() {
            ue[i] = classic_ue(t, i, &ue);
        }
    }
    (0..t.nodes.len())
        .map(|i| classic_factor(ue[i], ns[i], damp))
        .collect()
}
