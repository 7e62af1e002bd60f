//! What an sacct job line asks of a cluster beyond its CPUs: nodes, GPUs, memory and
//! exclusivity, from whichever of `ReqTRES`, `AllocTRES`, `ReqNodes`, `NNodes`, `ReqCPUS` and
//! `ReqMem` the file has (the rules are in docs/workloads.md, "Requests").

use crate::job::Request;
use crate::workload::slurm_tres::ReqMem;

/// The counts read from one job line (`None`: no column said).
pub(super) struct Asked {
    /// The CPUs the job ran on (its processors).
    pub cpus: i64,
    /// The CPUs it asked for: `ReqCPUS`, else `ReqTRES` `cpu=`.
    pub asked_cpus: Option<i64>,
    /// The CPUs allocated: `AllocCPUS` / `NCPUS`, else `AllocTRES` `cpu=`.
    pub alloc_cpus: Option<i64>,
    /// Nodes asked for: `ReqTRES` `node=`, else `ReqNodes`, else the nodes it ran on.
    pub nodes: Option<u64>,
    /// Nodes it ran on: `NNodes`, else `AllocTRES` `node=`.
    pub ran_on: Option<u64>,
    /// GPUs over the whole job: `ReqTRES` `gres/gpu`, else `AllocTRES`.
    pub gpus: Option<u64>,
}

/// Which column a bad count came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Col {
    Mem,
    Gpus,
    Nodes,
}

/// Largest count kept (as for CPUs: a machine of more could not be simulated).
const MAX_COUNT: u64 = (u32::MAX / 2) as u64;

impl Asked {
    /// The job's request (partition left 0: field 16 numbers it) and its memory per CPU in KB
    /// (SWF field 10; -1 when unknown), from the memory it asked (`ReqMem`, else the TRES
    /// memory as a total).
    pub fn request(&self, mem: Option<ReqMem>) -> Result<(Request, f64), (String, Col)> {
        let count = |v: Option<u64>, what: &str, col: Col| match v {
            Some(n) if n > MAX_COUNT => Err((format!("{n} {what}: at most {MAX_COUNT}"), col)),
            Some(n) => Ok(n as u32),
            None => Ok(0),
        };
        let nodes = count(self.nodes, "nodes", Col::Nodes)?;
        let gpus = count(self.gpus, "GPUs", Col::Gpus)?;
        let cpus = self.cpus.max(1) as f64;
        let spread = self.ran_on.or(self.nodes).filter(|&n| n > 0);
        let (per_node_mb, per_cpu_kb) = match mem {
            None => (0.0, -1.0),
            Some(ReqMem::PerCpu(mb)) => (0.0, mb * 1024.0),
            Some(ReqMem::PerNode(mb)) => (
                mb.ceil(),
                spread.map_or(-1.0, |n| mb * 1024.0 * n as f64 / cpus),
            ),
            Some(ReqMem::Total(mb)) => (
                spread.map_or(0.0, |n| (mb / n as f64).ceil()),
                mb * 1024.0 / cpus,
            ),
        };
        if per_node_mb > f64::from(u32::MAX) {
            return Err((
                format!("{per_node_mb} MB per node: at most {} MB (4 PB)", u32::MAX),
                Col::Mem,
            ));
        }
        let exclusive = matches!(
            (self.alloc_cpus, self.asked_cpus),
            (Some(alloc), Some(asked)) if asked > 0 && alloc > asked
        );
        let req = Request {
            nodes,
            gpus,
            mem_per_node_mb: per_node_mb as u32,
            partition: 0,
            exclusive,
        };
        Ok((req, per_cpu_kb))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn asked(cpus: i64, asked_cpus: Option<i64>, nodes: Option<u64>) -> Asked {
        Asked {
            cpus,
            asked_cpus,
            alloc_cpus: Some(cpus),
            nodes,
            ran_on: nodes,
            gpus: None,
        }
    }

    #[test]
    fn memory_by_form() {
        // 4 CPUs on 2 nodes: a total of 4000 MB is 2000 MB per node and 1000 MB per CPU.
        let a = asked(4, Some(4), Some(2));
        let (r, kb) = a.request(Some(ReqMem::Total(4000.0))).unwrap();
        assert_eq!((r.mem_per_node_mb, kb, r.nodes), (2000, 1_024_000.0, 2));
        let (r, kb) = a.request(Some(ReqMem::PerNode(3000.0))).unwrap();
        assert_eq!((r.mem_per_node_mb, kb), (3000, 1_536_000.0));
        let (r, kb) = a.request(Some(ReqMem::PerCpu(500.0))).unwrap();
        assert_eq!((r.mem_per_node_mb, kb), (0, 512_000.0));
        // Nodes unknown: the total is known per CPU only.
        let (r, kb) = asked(4, None, None)
            .request(Some(ReqMem::Total(1000.0)))
            .unwrap();
        assert_eq!((r.mem_per_node_mb, kb, r.nodes), (0, 256_000.0, 0));
        let (r, kb) = a.request(None).unwrap();
        assert_eq!((r.mem_per_node_mb, kb), (0, -1.0));
        let e = a.request(Some(ReqMem::PerNode(1e10))).unwrap_err();
        assert_eq!(e.1, Col::Mem);
    }

    #[test]
    fn exclusive_when_more_cpus_than_asked() {
        assert!(
            !asked(4, Some(4), Some(1))
                .request(None)
                .unwrap()
                .0
                .exclusive
        );
        assert!(
            asked(8, Some(3), Some(1))
                .request(None)
                .unwrap()
                .0
                .exclusive
        );
        assert!(!asked(8, None, Some(1)).request(None).unwrap().0.exclusive);
        let mut a = asked(8, Some(8), Some(1));
        a.gpus = Some(1 << 40);
        assert_eq!(a.request(None).unwrap_err().1, Col::Gpus);
    }
}
