//! The rows of a Gantt chart grouped by node: which processors each node holds, where the lines
//! between nodes go, which node names fit on the axis, and on a cluster with GPUs each node's
//! GPUs (counted on the axis) and the jobs that ask for GPUs (drawn darker). Data preparation
//! only; `gantt.rs` draws what this says.

use crate::cluster::{Layout, Placement};
use crate::plural::count;

/// Nodes as ranges of processor rows: node `k` holds `first[k]..first[k + 1]` (the last one up
/// to the machine's processors).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NodeRows {
    /// Each node's first processor, increasing from 0; empty: rows not grouped.
    pub first: Vec<u32>,
    /// Each node's name (a cluster's), or empty (the node model's nodes are unnamed).
    pub names: Vec<String>,
    /// Cores per node when every node has as many (the node model), else 0.
    pub cores: u32,
    /// Each node's GPUs (a cluster's); empty: none.
    pub gpus: Vec<u32>,
    /// The jobs (indices, increasing) that ask for GPUs: their rectangles are drawn in a darker
    /// shade.
    pub gpu_jobs: Vec<u32>,
    /// With GPU lanes ([`super::gpu_lanes`]): each node's first lane row (after its cores);
    /// `first` then counts rows, not processors. Empty: no lanes.
    pub lane_first: Vec<u32>,
    /// With GPU lanes: the rows of each of a node's lanes.
    pub lane_rows: Vec<u32>,
}

/// Lines between nodes stay at least this many pixels apart.
pub const MIN_NODE_PX: f64 = 3.0;
/// Names on the axis stay at least this many pixels apart (a line of the labels' font).
pub const NAME_PX: f64 = 13.0;
/// Most node names the page hands the chart (a cluster has at most 100,000 nodes).
pub const MAX_NODES: usize = 100_000;

impl NodeRows {
    /// Nodes of `cores` processors each over `procs` processors (the node model); no grouping
    /// when `cores` is 0.
    pub fn uniform(procs: u32, cores: u32) -> NodeRows {
        if cores == 0 {
            return NodeRows::default();
        }
        NodeRows {
            first: (0..procs.div_ceil(cores)).map(|n| n * cores).collect(),
            cores,
            ..NodeRows::default()
        }
    }

    /// A cluster's nodes, in its order (node `k`'s cores follow those of the nodes before it).
    pub fn of_layout(l: &Layout) -> NodeRows {
        NodeRows {
            first: l.nodes.iter().map(|n| n.first_proc).collect(),
            names: l.nodes.iter().map(|n| n.name.clone()).collect(),
            gpus: l.nodes.iter().map(|n| n.gpus).collect(),
            ..NodeRows::default()
        }
    }

    /// A run's nodes ([`NodeRows::of_layout`]) and which of its jobs ask for GPUs.
    pub fn of_placement(p: &Placement) -> NodeRows {
        NodeRows {
            gpu_jobs: (0..p.needs.len() as u32)
                .filter(|&j| p.needs[j as usize].gpus > 0)
                .collect(),
            ..NodeRows::of_layout(&p.layout)
        }
    }

    /// These rows with each node's GPUs (`gpus`: none, or one count per node) and the jobs that
    /// ask for GPUs (indices, any order), as the page hands them.
    pub fn with_gpus(mut self, gpus: Vec<u32>, mut gpu_jobs: Vec<u32>) -> Result<NodeRows, String> {
        if !gpus.is_empty() && gpus.len() != self.first.len() {
            return Err(format!(
                "nodes: {} GPU counts for {} nodes",
                gpus.len(),
                self.first.len()
            ));
        }
        gpu_jobs.sort_unstable();
        gpu_jobs.dedup();
        self.gpus = gpus;
        self.gpu_jobs = gpu_jobs;
        Ok(self)
    }

    /// These rows with GPU lanes as the page hands them (`lane_first`, `lane_rows`: none, or
    /// one per node, each node's lanes inside its `rows` rows).
    pub fn with_lanes(
        mut self,
        lane_first: Vec<u32>,
        lane_rows: Vec<u32>,
        rows: u32,
    ) -> Result<NodeRows, String> {
        if lane_first.is_empty() && lane_rows.is_empty() {
            return Ok(self);
        }
        let n = self.first.len();
        if lane_first.len() != n || lane_rows.len() != n || self.gpus.len() != n {
            return Err(format!(
                "nodes: {} lane rows and {} lane heights for {n} nodes (with their GPUs)",
                lane_first.len(),
                lane_rows.len()
            ));
        }
        for k in 0..n {
            let end = self.first.get(k + 1).copied().unwrap_or(rows);
            let top = u64::from(lane_first[k]) + u64::from(self.gpus[k]) * u64::from(lane_rows[k]);
            if lane_first[k] < self.first[k] || top > u64::from(end) {
                return Err(format!("nodes: node {k}'s GPU lanes outside its rows"));
            }
        }
        self.lane_first = lane_first;
        self.lane_rows = lane_rows;
        Ok(self)
    }

    /// Each node's GPU lanes (with lanes): `(first row, rows of a lane, lanes)`.
    pub fn lane_bands(&self) -> impl Iterator<Item = (u32, u32, u32)> + '_ {
        (0..self.lane_first.len())
            .map(|k| (self.lane_first[k], self.lane_rows[k], self.gpus[k]))
            .filter(|&(_, h, g)| h > 0 && g > 0)
    }

    /// Whether job `job` asks for GPUs.
    pub fn uses_gpus(&self, job: u32) -> bool {
        self.gpu_jobs.binary_search(&job).is_ok()
    }

    /// Named nodes as the page hands them, checked against a machine of `procs` processors:
    /// `first` starts at 0 and increases, below `procs`; as many names as nodes.
    pub fn named(first: Vec<u32>, names: Vec<String>, procs: u32) -> Result<NodeRows, String> {
        if first.len() != names.len() || first.len() > MAX_NODES {
            return Err(format!(
                "nodes: {} first processors and {} names (equal counts, at most {MAX_NODES})",
                first.len(),
                names.len()
            ));
        }
        let increasing = first.windows(2).all(|w| w[0] < w[1]);
        if first.first().is_some_and(|&f| f != 0) || !increasing {
            return Err("nodes: first processors must start at 0 and increase".to_string());
        }
        if first.last().is_some_and(|&f| f >= procs) {
            return Err(format!("nodes: a node starts past the {procs} processors"));
        }
        Ok(NodeRows {
            first,
            names,
            ..NodeRows::default()
        })
    }

    /// The y axis' name.
    pub fn desc(&self) -> String {
        match (self.cores, self.first.is_empty()) {
            (0, true) => "processors".to_string(),
            (0, false) => {
                let gpus: u64 = self.gpus.iter().map(|&g| u64::from(g)).sum();
                let nodes = count(self.first.len(), "node");
                if !self.lane_first.is_empty() {
                    format!(
                        "cores, then a lane per GPU, of {nodes} ({})",
                        count(gpus, "GPU")
                    )
                } else if gpus > 0 {
                    format!("processors of {nodes} ({})", count(gpus, "GPU"))
                } else {
                    format!("processors of {nodes}")
                }
            }
            (c, _) => format!("processors ({c} per node)"),
        }
    }

    /// The processor ids where a line between nodes is drawn, at `px_per_proc` pixels per
    /// processor. The node model's equal nodes get every line or none (while a node is at least
    /// [`MIN_NODE_PX`] high); a cluster's get each line at least that far above the last one
    /// drawn, so that a dense cluster shows groups of nodes.
    pub fn separators(&self, px_per_proc: f64) -> Vec<u32> {
        let bounds = self.first.iter().skip(1).copied();
        if self.cores > 0 {
            return if f64::from(self.cores) * px_per_proc >= MIN_NODE_PX {
                bounds.collect()
            } else {
                Vec::new()
            };
        }
        let mut last = 0u32;
        bounds
            .filter(|&b| {
                let keep = f64::from(b - last) * px_per_proc >= MIN_NODE_PX;
                if keep {
                    last = b;
                }
                keep
            })
            .collect()
    }

    /// The node names that fit on the axis at `px_per_proc` pixels per processor over `procs`
    /// processors: `(centre row, name)` for each node at least [`NAME_PX`] high whose centre is
    /// that far from the last name placed.
    pub fn labels(&self, procs: u32, px_per_proc: f64) -> Vec<(f64, &str)> {
        let mut out = Vec::new();
        let mut last = f64::NEG_INFINITY;
        for (k, name) in self.names.iter().enumerate() {
            let lo = self.first[k];
            let hi = self.first.get(k + 1).copied().unwrap_or(procs).max(lo);
            let centre = (f64::from(lo) + f64::from(hi)) / 2.0;
            if f64::from(hi - lo) * px_per_proc >= NAME_PX
                && (centre - last) * px_per_proc >= NAME_PX
            {
                out.push((centre, name.as_str()));
                last = centre;
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rows(first: &[u32]) -> NodeRows {
        let names = (0..first.len()).map(|k| format!("n{k}")).collect();
        NodeRows::named(first.to_vec(), names, 100).unwrap()
    }

    #[test]
    fn uniform_nodes_get_every_line_or_none() {
        let r = NodeRows::uniform(16, 4);
        assert_eq!(r.first, [0, 4, 8, 12]);
        assert_eq!(r.separators(1.0), [4, 8, 12]);
        assert!(r.separators(0.5).is_empty());
        assert!(NodeRows::uniform(16, 0).first.is_empty());
        assert_eq!(r.desc(), "processors (4 per node)");
    }

    #[test]
    fn a_dense_cluster_keeps_lines_three_pixels_apart() {
        // Nodes of 2, 2, 2, 10 cores at 1 px per core: lines at 2 (too close to 0) no, 4 yes,
        // 6 no (2 px above 4), then none; at 2 px per core every line.
        let r = rows(&[0, 2, 4, 6]);
        assert_eq!(r.separators(1.0), [4]);
        assert_eq!(r.separators(2.0), [2, 4, 6]);
    }

    #[test]
    fn names_fit_or_are_left_out() {
        // Nodes 0..10, 10..12, 12..30 and 30..100 (of 100 processors) at 2 px per processor:
        // n1 is 4 px high, n2's centre 21 is 32 px above n0's (5).
        let r = rows(&[0, 10, 12, 30]);
        assert_eq!(
            r.labels(100, 2.0),
            [(5.0, "n0"), (21.0, "n2"), (65.0, "n3")]
        );
        assert_eq!(r.labels(100, 0.1), []);
    }

    #[test]
    fn bad_rows_are_refused() {
        let n = |k: usize| (0..k).map(|i| i.to_string()).collect::<Vec<_>>();
        assert!(NodeRows::named(vec![0, 4], n(1), 8).is_err());
        assert!(NodeRows::named(vec![1, 4], n(2), 8).is_err());
        assert!(NodeRows::named(vec![0, 4, 4], n(3), 8).is_err());
        assert!(NodeRows::named(vec![0, 8], n(2), 8).is_err());
        assert!(NodeRows::named(vec![], n(0), 8).unwrap().first.is_empty());
    }
}
