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

/// Worked by hand: 4 nodes a, b, c, d of 8 cores, 1000 MB and 4 GPUs. Each node gives its free
/// cores up to what the job still needs, with its free GPUs; past its cores, a node with a
/// free GPU gives one core, at most one node per core; the cores are then laid one on each
/// node, then one more on each node with room, round after round, in node order.
/// - 2 cores, 8 GPUs: a gives 2 cores and 4 GPUs, b past its cores 1 core and 4 GPUs; laid:
///   1 and 1 (without the rule a took both cores and the job never fitted);
/// - 9 cores, 8 GPUs: a gives 8 cores and 4 GPUs, b 1 core and 4 GPUs: met without going past
///   its cores, as without the rule;
/// - 3 cores, 12 GPUs: a 3 cores, b and c 1 each past them; laid 1, 1, 1;
/// - 5 cores, 12 GPUs: a 5, b 1, c 1; laid 1, 1, 1, then a alone (b and c are full) 2, then
///   3: 3, 1, 1;
/// - 2 cores, 12 GPUs: a and b take 8 GPUs on 2 nodes, a third node would be more nodes than
///   cores: it does not fit;
/// - 2 cores, 8 GPUs, 400 MB a core: a 2 cores, b 1; laid 1 and 1, 400 MB each;
/// - 2 cores, 8 GPUs, exclusive: a and b held whole (their 1000 MB and 4 GPUs), a core used
///   on each;
/// - b running 1 core and 2 GPUs (7 cores, 2 GPUs free): 9 cores, 8 GPUs take a's 8 cores and
///   4 GPUs, then b's last core needed and its 2 GPUs, then c past its cores 1 core and 2 GPUs;
///   laid 1, 1, 1, then the six left on a: a 7 cores and 4 GPUs, b 1 and 2, c 1 and 2 (without
///   the rule 2 GPUs were left unplaced); exclusive, 2 cores and 8 GPUs skip b: a and c;
///   3 cores and 12 GPUs take a (3 cores, 4 GPUs), b and c past its cores (2 and 4 GPUs):
///   10 GPUs on three nodes, and a fourth would be more nodes than cores: it does not fit
///   (Slurm retries without the nodes of fewest free resources, b, which is not modelled).
#[test]
fn a_jobs_gpus_go_past_its_cores_one_core_a_node() {
    let c = Cluster::from_compact("1/n[1-4]:c8:m1000:g4").unwrap();
    let l = Layout::new(&c).unwrap();
    let share = |node: u32, cpus: u32, gpus: u32| crate::cluster::Share {
        node,
        cpus,
        mem_mb: 0,
        gpus,
        whole: false,
    };
    // A core and 4 GPUs on each of nodes `a` and `b`, `mem_mb` each, held whole or not.
    let two = |a: u32, b: u32, mem_mb: u64, whole: bool| {
        let on = |node| crate::cluster::Share {
            mem_mb,
            whole,
            ..share(node, 1, 4)
        };
        Some(vec![on(a), on(b)])
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
    check(&free, &job(2, 8), two(0, 1, 0, false));
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
    check(
        &free,
        &job(5, 12),
        Some(vec![share(0, 3, 4), share(1, 1, 4), share(2, 1, 4)]),
    );
    check(&free, &job(2, 12), None);
    let per_core = Need {
        mem_per_cpu_mb: 400,
        ..job(2, 8)
    };
    check(&free, &per_core, two(0, 1, 400, false));
    let exclusive = Need {
        exclusive: true,
        ..job(2, 8)
    };
    check(&free, &exclusive, two(0, 1, 1000, true));
    let mut busy = Free::all(&l);
    busy.take(&l, &[share(1, 1, 2)]);
    check(
        &busy,
        &job(9, 8),
        Some(vec![share(0, 7, 4), share(1, 1, 2), share(2, 1, 2)]),
    );
    check(&busy, &job(3, 12), None);
    check(&busy, &exclusive, two(0, 2, 1000, true));
}

/// Going past its cores for its GPUs changes nothing where the walk without it places the
/// job: on random busy states and needs of few cores and many GPUs (some with memory per core,
/// some exclusive), the walk without it ([`Free::walk_in`], `spread` false, in Slurm's order)
/// and [`Free::select`] give the same allocation whenever the former finds one; the latter
/// places some needs the former cannot, with all their cores and GPUs, a core or more on each
/// node and no more nodes than cores.
#[test]
fn going_past_its_cores_changes_only_the_needs_the_walk_without_cannot_place() {
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
                exclusive: rand(10) == 0,
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
            } else if let Some(a) = spread {
                let cpus: u32 = a.iter().map(|s| s.cpus).sum();
                let gpus: u32 = a.iter().map(|s| s.gpus.min(n.gpus)).sum();
                assert!(cpus == n.cpus && a.len() as u32 <= n.cpus, "{n:?} {a:?}");
                assert!(a.iter().all(|s| s.cpus > 0 && s.gpus > 0), "{n:?} {a:?}");
                assert!(n.exclusive || gpus == n.gpus, "{n:?} {a:?}");
                newly += 1;
            }
        }
    }
    assert!(same > 5000 && newly > 1000, "{same} {newly}");
}
