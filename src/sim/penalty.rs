//! The penalty function of Guim, Rodero & Corbalan (equations 1-3): the shared resources of a
//! node, saturated by the summed demands of the jobs sharing it, slow those jobs down.

/// Equation 2 for one resource: `max(demand, capacity) / capacity - 1` (0 below capacity).
/// A capacity <= 0 is treated as "no such resource" (no penalty).
pub fn resource_penalty(demand: f64, capacity: f64) -> f64 {
    if capacity > 0.0 && demand > capacity {
        demand / capacity - 1.0
    } else {
        0.0
    }
}

/// Equation 2 over every resource of a node: the sum of the resources' penalties, given
/// `(demand, capacity)` pairs (equation 1's demand is the sum over the window's jobs).
pub fn node_penalty(resources: &[(f64, f64)]) -> f64 {
    resources.iter().map(|&(d, c)| resource_penalty(d, c)).sum()
}

/// Equation 3: the time a shared window of `length` seconds (of the jobs' own progress) with
/// `penalty` adds to every job in it.
pub fn penalized_time(length: f64, penalty: f64) -> f64 {
    length * penalty
}

/// A job's penalty factor on several nodes: 1 + the largest penalty of its nodes.
pub fn job_factor(node_penalties: impl IntoIterator<Item = f64>) -> f64 {
    1.0 + max_penalty(node_penalties)
}

/// The largest of node penalties (0 for none): what [`job_factor`] adds to 1.
pub fn max_penalty(node_penalties: impl IntoIterator<Item = f64>) -> f64 {
    node_penalties.into_iter().fold(0.0, f64::max)
}
