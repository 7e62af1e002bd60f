//! The jobs submitted to several partitions (Slurm's `sbatch -p short,batch`): each one's
//! partitions on the cluster, in the order Slurm tries them ([`Placement::parts_of`]). A side
//! table of those jobs only: a job of one partition keeps its one [`Need::part`].

use super::{never_fits, Layout, Need, Placement};
use crate::job::Job;

/// One job's partitions, beyond the one of its [`Need`].
#[derive(Debug, Clone)]
pub struct PartList {
    /// The job's index.
    job: usize,
    /// It asks for whole nodes itself (`--exclusive`), whatever its partition says.
    exclusive: bool,
    /// Its partitions (indices into [`Layout::parts`]) in the order Slurm tries them.
    parts: Box<[u32]>,
}

/// The order Slurm tries a job's partitions in: `PriorityTier`, highest first, ties in the
/// list's order (22.05: `_select_nodes_parts` sorts `part_ptr_list` with
/// `priority_sort_part_tier`, job_mgr.c 5199, and so does the priority plugin,
/// priority_multifactor.c 613; `list_sort` keeps equal ones in order). `names` are the job's
/// partitions as the log lists them; those the cluster lacks are left out.
pub fn try_order(layout: &Layout, names: &[String]) -> Vec<u32> {
    let mut parts: Vec<u32> = Vec::new();
    for name in names {
        if let Some(p) = layout.part_index(name) {
            if !parts.contains(&(p as u32)) {
                parts.push(p as u32);
            }
        }
    }
    parts.sort_by_key(|&p| std::cmp::Reverse(layout.parts[p as usize].priority_tier));
    parts
}

impl Placement {
    /// This placement with the partition lists of the jobs submitted to several (`lists`: (job
    /// index, the names as the log lists them), by job index). A job keeps the partition of its
    /// [`Need`] (the log's first: the one it ran in); one whose first the cluster lacks (it runs
    /// in the default partition), or with fewer than two of its partitions on the cluster,
    /// keeps that one alone. A job that can never run in its own partition but can in another
    /// of its list is no longer left out.
    pub fn with_lists(mut self, jobs: &[Job], lists: &[(usize, Vec<String>)]) -> Placement {
        for (j, names) in lists {
            let j = *j;
            let Some(own) = names.first().and_then(|n| self.layout.part_index(n)) else {
                continue;
            };
            if self.needs.get(j).is_none_or(|n| n.part as usize != own) {
                continue;
            }
            let parts = try_order(&self.layout, names);
            if parts.len() < 2 {
                continue;
            }
            let exclusive = jobs[j].req.exclusive;
            self.lists.push(PartList {
                job: j,
                exclusive,
                parts: parts.into_boxed_slice(),
            });
        }
        self.lists.sort_by_key(|l| l.job);
        self.lists.dedup_by_key(|l| l.job);
        if !self.lists.is_empty() {
            let mut never = std::mem::take(&mut self.never);
            never.retain(|&(j, _)| {
                let parts = self.parts_of(j);
                parts.len() < 2
                    || parts.iter().all(|&p| {
                        let need = self.need_in(j, p);
                        never_fits(&self.layout, &self.idle, &need, jobs[j].requested()).is_some()
                    })
            });
            self.never = never;
        }
        self
    }

    /// Job `j`'s partitions in the order Slurm tries them: its own ([`Need::part`]) alone,
    /// unless it was submitted to several ([`Placement::with_lists`]).
    #[inline]
    pub fn parts_of(&self, j: usize) -> &[u32] {
        if !self.lists.is_empty() {
            if let Ok(k) = self.lists.binary_search_by_key(&j, |l| l.job) {
                return &self.lists[k].parts;
            }
        }
        std::slice::from_ref(&self.needs[j].part)
    }

    /// Whether any job was submitted to several partitions.
    pub fn has_lists(&self) -> bool {
        !self.lists.is_empty()
    }

    /// What job `j` asks in partition `part`: its [`Need`] there (whole nodes when it asks so
    /// or the partition is `OverSubscribe=EXCLUSIVE`).
    pub fn need_in(&self, j: usize, part: u32) -> Need {
        let need = self.needs[j];
        if need.part == part {
            return need;
        }
        let own = match self.lists.binary_search_by_key(&j, |l| l.job) {
            Ok(k) => self.lists[k].exclusive,
            Err(_) => need.exclusive,
        };
        Need {
            part,
            exclusive: own || self.layout.parts[part as usize].exclusive,
            ..need
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layout() -> Layout {
        let conf = "NodeName=n[1-4] CPUs=4\n\
            PartitionName=batch Nodes=n[1-4] Default=YES\n\
            PartitionName=short Nodes=n[1-2] PriorityTier=2\n\
            PartitionName=gpu Nodes=n[3-4]\n";
        let c = crate::cluster::conf::parse_str(conf, "t.conf")
            .unwrap()
            .cluster;
        Layout::new(&c).unwrap()
    }

    fn names(list: &[&str]) -> Vec<String> {
        list.iter().map(|s| s.to_string()).collect()
    }

    /// Highest `PriorityTier` first, ties in the list's order, unknown names left out.
    #[test]
    fn partitions_are_tried_by_tier_then_list_order() {
        let l = layout();
        let (batch, short, gpu) = (0, 1, 2);
        assert_eq!(try_order(&l, &names(&["batch", "short"])), [short, batch]);
        assert_eq!(try_order(&l, &names(&["gpu", "batch"])), [gpu, batch]);
        assert_eq!(try_order(&l, &names(&["batch", "gpu"])), [batch, gpu]);
        assert_eq!(
            try_order(&l, &names(&["batch", "nope", "gpu", "short", "gpu"])),
            [short, batch, gpu]
        );
    }

    /// Only the jobs of a list have more than their own partition; a need elsewhere keeps the
    /// job's shape.
    #[test]
    fn a_list_gives_a_job_its_partitions() {
        let l = layout();
        let jobs = vec![
            Job {
                procs: 2,
                req: crate::job::Request {
                    partition: 1,
                    ..Default::default()
                },
                ..Default::default()
            };
            3
        ];
        let parts = names(&["gpu", "short"]);
        let mut jobs = jobs;
        jobs[1].req.partition = 2;
        let lists = vec![
            (0, names(&["gpu", "batch"])),
            (1, names(&["short", "batch"])),
        ];
        let p = Placement::new(l, &jobs, &parts).with_lists(&jobs, &lists);
        assert!(p.has_lists());
        assert_eq!(p.parts_of(0), [2, 0]);
        assert_eq!(p.parts_of(1), [1, 0]);
        assert_eq!(p.parts_of(2), [2]);
        let n = p.need_in(0, 0);
        assert_eq!((n.part, n.cpus), (0, 2));
        assert_eq!(p.need_in(0, 2), p.needs[0]);
    }
}
