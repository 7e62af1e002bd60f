// What a demo recorded on a Slurm site offers, picked from the menu or opened from a link
// without a policy: the policies to compare and a sweep of what a Slurm admin varies.
import { DEFAULT_SWEEP, SITE_POLICIES } from './share.js';

const family = (spec, name) => spec === name || spec.startsWith(`${name}[`);

/** The sweep the Slurm demo offers (offerSite). */
const SLURM_SWEEP = { vary: 'PriorityWeightFairshare=0,2500,5000,10000,20000,40000', seeds: 1, metric: 'wait' };

/** Adds to `picker` the slurm policy to compare and historic, its own schedule, which the
 * two-schedules view opens on as A (replay fidelity: how far each policy is from what Slurm
 * did, before any what-if), and suggests to `sweep` a sweep of the fairshare weight. */
export function offerSite(picker, sweep) {
  for (const name of SITE_POLICIES) if (!picker.entries.some((e) => family(e.spec.trim(), name))) picker.add(name);
  suggestSweep(picker, sweep);
}

/** The sweep panel's defaults (pv-easy's estimate error) say nothing of Slurm: unless the
 * user set the panel, it offers what a Slurm admin varies, the fairshare weight around the
 * site's own (10000 in the demo), for the slurm policy, over one seed (the policy draws no
 * random numbers: more seeds repeat the same run), by the mean wait. */
function suggestSweep(picker, sweep) {
  const slurm = picker.entries.find((e) => family(e.spec.trim(), 'slurm'))?.spec.trim();
  if (slurm) sweep.suggest({ ...SLURM_SWEEP, more: [], pick: [slurm] }, DEFAULT_SWEEP);
}

/** An admin's own site (the sweep panel offers what the Slurm demo's does, `sweep`): an sacct log shown (`sacct`, by default `shown.sacct`: its facts hold
 * the jobs' Slurm JobIDs; or an sacct log dropped with its slurm.conf, about to run) and a
 * slurm.conf of one's own read in the Cluster panel (`ownConf`), while the compared policies
 * have no `slurm`: the slurm policy, which reads that slurm.conf, and historic, the log's
 * recorded schedule, join the compared policies. Once a page (`shown.ownSiteOffered`): removed
 * by the user, they are not added again. Returns the names added, or null. */
export function offerOwnSite(picker, sweep, shown, ownConf, sacct = shown.sacct) {
  const has = (name) => picker.entries.some((e) => family(e.spec.trim(), name));
  if (shown.ownSiteOffered || !sacct || !ownConf || has('slurm')) return null;
  shown.ownSiteOffered = true;
  const added = SITE_POLICIES.filter((name) => !has(name));
  for (const name of added) picker.add(name);
  suggestSweep(picker, sweep); // before, the panel kept offering pv-easy's estimate error
  return added;
}

/** Files dropped together for the Cluster panel (dropsort.js `sorted`), read there; with an
 * sacct log and its slurm.conf among them, slurm and historic join the compared policies
 * before the log's run, which shows them at once (before, the log ran without them, and they
 * were added after it, for a second run). `shown`: the page's state (offerOwnSite). */
export async function readDroppedSite(sorted, { cluster, picker, sweep, shown }) {
  await cluster.dropped(sorted);
  if (sorted.trace && sorted.sacct && sorted.slurmConf) offerOwnSite(picker, sweep, shown, cluster.ownSite().conf, true);
}
