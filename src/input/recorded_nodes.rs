//! The nodes each job ran on (an sacct log's `NodeList`) as allocations on the cluster the
//! jobs run on: where `historic` starts a job, so that a log replayed on its own cluster keeps
//! its recorded schedule node for node.

use crate::cluster::{hostlist, Alloc, Placement};
use crate::job::Job;
use crate::quote::quote;
use foldhash::HashMap;

/// Per job (by index), its allocation on the nodes of its recorded run, when the workload
/// names them (`by_line`: (line of its record, hostlist)) and the cluster has them all; empty
/// when the jobs run on no cluster or no job names its nodes. Notes in `warnings` count the
/// jobs whose nodes the cluster lacks and those whose `NodeList` is no hostlist (the first
/// named by line): the cluster's node selection places them.
pub(super) fn recorded_allocs(
    jobs: &[Job],
    by_line: &[(u64, String)],
    place: Option<&Placement>,
    warnings: &mut Vec<String>,
) -> Vec<Option<Alloc>> {
    let Some(place) = place.filter(|_| !by_line.is_empty()) else {
        return Vec::new();
    };
    let by_line: HashMap<u64, &str> = by_line.iter().map(|(l, n)| (*l, n.as_str())).collect();
    let index: HashMap<&str, u32> = place
        .layout
        .nodes
        .iter()
        .enumerate()
        .map(|(i, n)| (n.name.as_str(), i as u32))
        .collect();
    let (mut lacking, mut unreadable) = (0u64, 0u64);
    let mut bad = None;
    let mut first_lacking = None;
    let mut nodes = Vec::new();
    let out = jobs
        .iter()
        .enumerate()
        .map(|(j, job)| {
            let list = by_line.get(&job.line)?;
            let names = match hostlist::parse(list) {
                Ok(names) => names,
                Err(e) => {
                    bad.get_or_insert_with(|| {
                        format!("line {}: NodeList {}: {e}", job.line, quote(list))
                    });
                    unreadable += 1;
                    return None;
                }
            };
            nodes.clear();
            for name in &names {
                match index.get(name.as_str()) {
                    Some(&n) => nodes.push(n),
                    None => {
                        lacking += 1;
                        first_lacking.get_or_insert_with(|| name.clone());
                        return None;
                    }
                }
            }
            place.alloc_on_nodes(j, &nodes)
        })
        .collect();
    if let Some(name) = first_lacking {
        warnings.push(format!(
            "{} ran on nodes the cluster does not have (the first: {name}): historic starts {} \
             on the cluster's node selection",
            crate::plural::count(lacking, "job"),
            if lacking == 1 { "it" } else { "them" }
        ));
    }
    if let Some(first) = bad {
        warnings.push(format!(
            "{} {} nodes that cannot be read (the first: {first}): historic starts {} on the \
             cluster's node selection",
            crate::plural::count(unreadable, "job"),
            if unreadable == 1 { "names" } else { "name" },
            if unreadable == 1 { "it" } else { "them" }
        ));
    }
    out
}
