//! The walk for jobs asking for cores and GPUs alone (`Free::walk_cores::<true>`, without the
//! checks of memory and exclusivity) against the general loop (`Free::walk::<false>`) on the
//! same needs.

use crate::cluster::{Alloc, Cluster, Free, Layout, Need};

/// The general walk's allocation of `need` ([`Free::walk`] without the loop for cores and
/// GPUs alone).
fn general(free: &Free, l: &Layout, need: &Need, within: Option<&Free>) -> Option<Alloc> {
    let mut out = Vec::new();
    free.walk::<false>(l, need, within, Some(&mut out))
        .then_some(out)
}

/// Random busy states of a cluster with GPU nodes of two sizes, CPU nodes and two partitions
/// sharing nodes; needs of cores and GPUs alone, some near all the free cores, selected alone
/// and within a second busy state: the specialised walk (through [`Free::select`]) gives the
/// general walk's allocation, and both agree on whether it fits.
#[test]
fn the_cores_and_gpus_walk_gives_the_general_walks_allocation() {
    let c = Cluster::from_compact(
        "1/g[1-70]:c8:m1000:g4/h[1-9]:c16:m1000:g1/c[1-60]:c4:m500\
         /p=a:ALL:default/p=b:h[1-9],c[1-20],g[60-70]",
    )
    .unwrap();
    let l = Layout::new(&c).unwrap();
    let mut x: u64 = 17;
    let mut rand = |m: u64| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % m) as u32
    };
    let any_need = |rand: &mut dyn FnMut(u64) -> u32| Need {
        part: rand(2),
        cpus: 1 + rand(60),
        nodes: if rand(8) == 0 { 1 + rand(4) } else { 0 },
        gpus: rand(3) * rand(8),
        mem_per_cpu_mb: u64::from(rand(8) == 0) * 50,
        mem_per_node_mb: 0,
        exclusive: rand(10) == 0,
    };
    let busy = |rand: &mut dyn FnMut(u64) -> u32| {
        let mut free = Free::all(&l);
        for _ in 0..rand(60) {
            if let Some(a) = free.select(&l, &any_need(rand), None) {
                free.take(&l, &a);
            }
        }
        free
    };
    let (mut fits, mut checked) = (0, 0);
    for _ in 0..300 {
        let free = busy(&mut rand);
        let other = busy(&mut rand);
        for _ in 0..20 {
            let wide = rand(2) == 0;
            let mut need = Need {
                part: rand(2),
                cpus: 1 + rand(if wide { 700 } else { 60 }),
                gpus: rand(3) * rand(12),
                ..Need::default()
            };
            if rand(2) == 0 {
                let near = free
                    .part_cores(need.part)
                    .saturating_sub(u64::from(rand(24)));
                need.cpus = u32::try_from(near).unwrap().max(1);
            }
            assert!(Free::by_sums(&need));
            let within = (rand(2) == 0).then_some(&other);
            let want = general(&free, &l, &need, within);
            let got = free.select(&l, &need, within);
            assert_eq!(got, want, "{need:?}");
            assert_eq!(
                free.fits(&l, &need),
                general(&free, &l, &need, None).is_some()
            );
            checked += 1;
            fits += usize::from(got.is_some());
        }
    }
    assert!(checked == 6000 && fits > 1500, "{checked} {fits}");
}
