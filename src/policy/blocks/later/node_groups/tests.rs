//! The factor of a complete LessConsume run from the free nodes counted by demand and free
//! processors (`NodeGroups`, an order statistic) against the run itself, on random machine
//! states: the same bits, for LessConsume and for every LessConsume-Threshold stop it exceeds.

use super::*;
use crate::policy::blocks::less_consume::{RunInputs, Scratch};
use proptest::prelude::*;

/// Free nodes in id order: free processors 0..=cores (nodes with none left out) and a demand
/// drawn from a few round values (so groups share demands) or any value.
fn state(cores: u32) -> impl Strategy<Value = Vec<FreeNode>> {
    prop::collection::vec(
        (
            0..=cores,
            prop_oneof![
                prop::sample::select(vec![0.0, 500.0, 1000.0, 2000.0, 3000.0, 4500.0]),
                0.0f64..12_000.0,
            ],
        ),
        1..40,
    )
    .prop_map(|v| {
        v.into_iter()
            .enumerate()
            .filter(|(_, (f, _))| *f > 0)
            .map(|(n, (f, d))| (n as u32, f, d))
            .collect()
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn groups_give_the_factor_of_a_complete_run(
        (cores, nodes) in (1u32..=8).prop_flat_map(|c| (Just(c), state(c))),
        need in 1u32..=64,
        per_proc in prop::sample::select(vec![500.0, 1000.0, 2000.0, 3000.0, 1234.5]),
        bandwidth in prop::sample::select(vec![6000.0, 4000.0, 1000.0]),
        stops in prop::collection::vec(1.0f64..3.0, 1..5),
    ) {
        let _ = cores;
        let total: u32 = nodes.iter().map(|n| n.1).sum();
        let run = RunInputs { nodes: &nodes, total, bandwidth, need, per_proc };
        let mut groups = NodeGroups::new();
        groups.build(&nodes);
        let whole = groups.factor(need, per_proc, bandwidth, &mut Vec::new());
        let mut scratch = Scratch::default();
        let full = run.run(1.0, true, &mut scratch, |_| {});
        prop_assert_eq!(whole.map(f64::to_bits), full.map(f64::to_bits), "{:?} vs {:?}", whole, full);
        // Built one node at a time (as a walk keeps them), the same groups.
        let mut added = NodeGroups::new();
        for &(_, f, d) in &nodes {
            added.add(d, f);
        }
        prop_assert_eq!(&added, &groups);
        if let Some(w) = whole {
            let mut out = vec![0.0; stops.len()];
            prop_assert!(run.factors(&stops, &mut scratch, &mut out));
            for (&s, &o) in stops.iter().zip(&out) {
                if w > s {
                    prop_assert_eq!(o.to_bits(), w.to_bits(), "stop {}", s);
                } else {
                    prop_assert!(o <= s && o >= w);
                }
            }
        }
    }

    #[test]
    fn removing_a_node_undoes_adding_it(
        nodes in state(4),
        extra in (1u32..=4, prop::sample::select(vec![0.0, 500.0, 2000.0, 777.0])),
    ) {
        let mut groups = NodeGroups::new();
        groups.build(&nodes);
        let before = groups.clone();
        groups.add(extra.1, extra.0);
        groups.remove(extra.1, extra.0);
        prop_assert_eq!(groups, before);
    }
}
