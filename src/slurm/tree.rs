//! The association tree fairshare works on: root, accounts below it, users (user associations)
//! as leaves, each with raw shares and raw usage. Built from `sshare` rows ([`Tree::from_sshare`])
//! or, without them, with every user under root at one share ([`Tree::flat`]). Usage is kept
//! on every association and added up the tree as Slurm does (`_apply_new_usage` adds a job's
//! usage to its association and every ancestor up to root).

use super::sshare::{Row, Shares};

/// One association.
#[derive(Debug, Clone, PartialEq)]
pub struct Assoc {
    /// The account (for a user association, the account it belongs to).
    pub account: String,
    /// The user, for a user association (a leaf).
    pub user: Option<String>,
    /// Raw shares.
    pub shares: Shares,
    /// Parent (None for root).
    pub parent: Option<usize>,
    /// Children, in the order the sshare file lists them.
    pub children: Vec<usize>,
    /// Raw usage, billing-seconds, decayed.
    pub usage: f64,
}

/// The tree: `nodes[0]` is root.
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// Every association, root first.
    pub nodes: Vec<Assoc>,
}

impl Tree {
    fn root() -> Assoc {
        Assoc {
            account: "root".into(),
            user: None,
            shares: Shares::Raw(1),
            parent: None,
            children: Vec::new(),
            usage: 0.0,
        }
    }

    /// Every user under root with one share, no usage.
    pub fn flat<'a>(users: impl Iterator<Item = &'a str>) -> Self {
        let mut t = Tree {
            nodes: vec![Self::root()],
        };
        for u in users {
            t.add_user_under_root(u);
        }
        t
    }

    /// A user association under root with one share (a user the sshare file does not list).
    pub fn add_user_under_root(&mut self, user: &str) -> usize {
        let i = self.nodes.len();
        self.nodes.push(Assoc {
            account: "root".into(),
            user: Some(user.to_string()),
            shares: Shares::Raw(1),
            parent: Some(0),
            children: Vec::new(),
            usage: 0.0,
        });
        self.nodes[0].children.push(i);
        i
    }

    /// The tree of `sshare -a -l -P` rows, with their raw usage; root's usage is the sum of
    /// its children's (sshare rounds each row).
    pub fn from_sshare(rows: &[Row], file: &str) -> Result<Self, String> {
        let mut nodes: Vec<Assoc> = Vec::new();
        // The account node open at each depth.
        let mut open: Vec<usize> = Vec::new();
        for r in rows {
            let parent = if r.depth == 0 {
                None
            } else {
                let p = *open.get(r.depth - 1).ok_or_else(|| {
                    format!(
                        "{file}:{}: Account: indented {} levels below no account",
                        r.line, r.depth
                    )
                })?;
                Some(p)
            };
            let i = nodes.len();
            nodes.push(Assoc {
                account: r.account.clone(),
                user: r.user.clone(),
                shares: r.shares,
                parent,
                children: Vec::new(),
                usage: r.raw_usage,
            });
            if let Some(p) = parent {
                if nodes[p].user.is_some() {
                    return Err(format!("{file}:{}: a row below a user row", r.line));
                }
                nodes[p].children.push(i);
            }
            if r.user.is_none() {
                open.truncate(r.depth);
                open.push(i);
            }
        }
        if nodes.first().is_some_and(|n| n.user.is_some()) {
            return Err(format!("{file}: the first row must be the root account"));
        }
        let mut t = Tree { nodes };
        t.sum_usage(0);
        Ok(t)
    }

    /// Sets each account's usage to the sum of its children's (leaves keep theirs).
    fn sum_usage(&mut self, i: usize) -> f64 {
        if self.nodes[i].children.is_empty() {
            return self.nodes[i].usage;
        }
        let kids = self.nodes[i].children.clone();
        let s: f64 = kids.iter().map(|&k| self.sum_usage(k)).sum();
        self.nodes[i].usage = s;
        s
    }

    /// The user associations of `user`, in file order.
    pub fn user_assocs<'s>(&'s self, user: &'s str) -> impl Iterator<Item = usize> + 's {
        (0..self.nodes.len()).filter(move |&i| self.nodes[i].user.as_deref() == Some(user))
    }

    /// The number of user associations (Slurm's `g_user_assoc_count`).
    pub fn user_count(&self) -> usize {
        self.nodes.iter().filter(|n| n.user.is_some()).count()
    }

    /// Adds `amount` of usage to association `i` and every ancestor up to root.
    pub fn add_usage(&mut self, mut i: usize, amount: f64) {
        loop {
            self.nodes[i].usage += amount;
            match self.nodes[i].parent {
                Some(p) => i = p,
                None => break,
            }
        }
    }

    /// Multiplies every association's usage by `factor` (Slurm's `_apply_decay`).
    pub fn decay(&mut self, factor: f64) {
        for n in &mut self.nodes {
            n.usage *= factor;
        }
    }

    /// Sets every usage to zero (`PriorityUsageResetPeriod`).
    pub fn reset(&mut self) {
        for n in &mut self.nodes {
            n.usage = 0.0;
        }
    }

    /// Every association's level shares: the raw shares of its siblings and itself, `parent`
    /// shares left out (Slurm's `level_shares`); root's 1.
    pub fn all_level_shares(&self) -> Vec<u64> {
        let mut sum = vec![0u64; self.nodes.len()];
        for n in &self.nodes {
            if let Some(p) = n.parent {
                if let Shares::Raw(s) = n.shares {
                    sum[p] += u64::from(s);
                }
            }
        }
        self.nodes
            .iter()
            .map(|n| n.parent.map_or(1, |p| sum[p]))
            .collect()
    }

    /// Association `i`'s level shares ([`Tree::all_level_shares`]'s `i`th).
    pub fn level_shares_of(&self, i: usize) -> u64 {
        let Some(p) = self.nodes[i].parent else {
            return 1;
        };
        self.nodes[p]
            .children
            .iter()
            .map(|&k| match self.nodes[k].shares {
                Shares::Raw(s) => u64::from(s),
                Shares::Parent => 0,
            })
            .sum()
    }

    /// Sets every usage from `usage` (as many values as associations), returning the old ones.
    pub fn swap_usage(&mut self, usage: Vec<f64>) -> Vec<f64> {
        let old = self.nodes.iter().map(|n| n.usage).collect();
        for (n, u) in self.nodes.iter_mut().zip(usage) {
            n.usage = u;
        }
        old
    }
}
