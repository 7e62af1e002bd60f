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

/// A cluster with GPU nodes of two sizes, CPU nodes and two partitions sharing nodes.
fn two_partitions() -> Layout {
    let c = Cluster::from_compact(
        "1/g[1-70]:c8:m1000:g4/h[1-9]:c16:m1000:g1/c[1-60]:c4:m500\
         /p=a:ALL:default/p=b:h[1-9],c[1-20],g[60-70]",
    )
    .unwrap();
    Layout::new(&c).unwrap()
}

/// A random number below `m` at each call, from `seed`.
fn rng(seed: u64) -> impl FnMut(u64) -> u32 {
    let mut x = seed;
    move |m| {
        x = x
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((x >> 33) % m) as u32
    }
}

/// Random busy states of a cluster with GPU nodes of two sizes, CPU nodes and two partitions
/// sharing nodes; needs of cores and GPUs alone, some near all the free cores, selected alone
/// and within a second busy state: the specialised walk (through [`Free::select`]) gives the
/// general walk's allocation, and both agree on whether it fits.
#[test]
fn the_cores_and_gpus_walk_gives_the_general_walks_allocation() {
    let l = two_partitions();
    let mut rand = rng(17);
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

/// Worked by hand: 4 nodes a, b, c, d of 8 cores and 4 GPUs, each node leaving a core for
/// each further node the job's GPUs still need (at most 4 GPUs a node).
/// - 2 cores, 8 GPUs: a gives its 4 GPUs, 4 more need 1 further node: a gives 2 - 1 = 1 core;
///   b gives 1 core and 4 GPUs (taking every core it meets, a took both and the job never
///   fitted);
/// - 9 cores, 8 GPUs: a may give 9 - 1 = 8 cores, all it has, and 4 GPUs; b 1 core and 4 GPUs
///   (as without the rule);
/// - 3 cores, 12 GPUs: a, b and c give 1 core and 4 GPUs each;
/// - 2 cores, 12 GPUs: three nodes need three cores: no node gives any, it does not fit;
/// - b running a job of 1 core and 2 GPUs (7 cores, 2 GPUs free): 9 cores, 8 GPUs take a's
///   8 cores and 4 GPUs, then b would give 2 GPUs and leave 2 for a further node: 1 - 1 = 0
///   cores, b gives nothing; c gives 1 core and 4 GPUs (without the rule b took the last core
///   with 2 GPUs, and 2 GPUs were left unplaced).
#[test]
fn a_jobs_gpus_spread_over_nodes_a_core_left_for_each_further_node() {
    let c = Cluster::from_compact("1/n[1-4]:c8:m1000:g4").unwrap();
    let l = Layout::new(&c).unwrap();
    let share = |node: u32, cpus: u32, gpus: u32| crate::cluster::Share {
        node,
        cpus,
        mem_mb: 0,
        gpus,
        whole: false,
    };
    let job = |cpus: u32, gpus: u32| Need {
        cpus,
        gpus,
        ..Need::default()
    };
    let check = |free: &Free, need: &Need, want: Option<Alloc>| {
        assert_eq!(free.select(&l, need, None), want, "{need:?}");
        assert_eq!(general(free, &l, need, None), want, "{need:?}");
        assert_eq!(free.fits(&l, need), want.is_some(), "{need:?}");
        let (mut taken, mut by_alloc) = (free.clone(), free.clone());
        assert_eq!(taken.take_selection(&l, need), want.is_some(), "{need:?}");
        if let Some(a) = &want {
            by_alloc.take(&l, a);
        }
        assert_eq!(taken, by_alloc, "{need:?}");
    };
    let free = Free::all(&l);
    check(
        &free,
        &job(2, 8),
        Some(vec![share(0, 1, 4), share(1, 1, 4)]),
    );
    check(
        &free,
        &job(9, 8),
        Some(vec![share(0, 8, 4), share(1, 1, 4)]),
    );
    check(
        &free,
        &job(3, 12),
        Some(vec![share(0, 1, 4), share(1, 1, 4), share(2, 1, 4)]),
    );
    check(&free, &job(2, 12), None);
    let mut busy = Free::all(&l);
    busy.take(&l, &[share(1, 1, 2)]);
    check(
        &busy,
        &job(9, 8),
        Some(vec![share(0, 8, 4), share(2, 1, 4)]),
    );
}

/// Leaving cores for further GPU nodes changes nothing where taking every core met places the
/// job: on random busy states and needs of few cores and many GPUs (some with memory per core),
/// the walk without it ([`Free::walk_in`], `spread` false, in Slurm's order) and
/// [`Free::select`] give the same allocation whenever the former finds one; the latter places
/// some needs the former cannot.
#[test]
fn spreading_changes_only_the_needs_taking_every_core_cannot_place() {
    let l = two_partitions();
    let mut rand = rng(23);
    let (mut same, mut newly) = (0, 0);
    for _ in 0..400 {
        let mut free = Free::all(&l);
        for _ in 0..rand(60) {
            let n = Need {
                part: rand(2),
                cpus: 1 + rand(30),
                gpus: rand(3) * rand(6),
                ..Need::default()
            };
            if let Some(a) = free.select(&l, &n, None) {
                free.take(&l, &a);
            }
        }
        for _ in 0..30 {
            let n = Need {
                part: rand(2),
                cpus: 1 + rand(40),
                gpus: rand(3) * rand(16),
                mem_per_cpu_mb: u64::from(rand(6) == 0) * 50,
                ..Need::default()
            };
            let order = &l.parts[n.part as usize].order;
            let mut k = 0;
            let next = |gpus: bool| {
                while k < order.len() {
                    let i = order[k] as usize;
                    k += 1;
                    if free.cpus[i] > 0 && (!gpus || free.gpus[i] > 0) {
                        return Some(i);
                    }
                }
                None
            };
            let mut plain = Vec::new();
            let placed = free.walk_in::<false>(&l, &n, None, false, next, Some(&mut plain));
            let spread = free.select(&l, &n, None);
            if placed {
                assert_eq!(spread, Some(plain), "{n:?}");
                same += 1;
            } else {
                newly += usize::from(spread.is_some());
            }
        }
    }
    assert!(same > 5000 && newly > 1000, "{same} {newly}");
}
