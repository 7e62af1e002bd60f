// Where trace bytes come from: the built-in demos, a URL, a file (picker or drop), or the
// generator (gen:lublin:PROCS:JOBS:SEED, made by the engine: nothing is downloaded).
import { call } from './engine.js';
import { parseGen } from './share.js';

export const DEMOS = [
  { id: 'hpc2n', file: 'hpc2n.swf.gz', name: 'hpc2n.swf', label: 'HPC2N 2002 excerpt (3,170 jobs, 240 processors)' },
  { id: '5K_sample', file: '5K_sample.swf.gz', name: '5K_sample', label: 'SDSC SP2 1998, first 4,961 jobs (128 processors)' },
  { id: 'kth', file: 'KTH-SP2-1996-2.1-cln.swf.gz', name: 'KTH-SP2-1996-2.1-cln.swf.gz', label: 'KTH SP2 1996-97 (28,476 jobs, 100 processors; 0.4 MB)' },
  { id: 'lanl', file: 'LANL-CM5-1994-4.1-cln.swf.gz', name: 'LANL-CM5-1994-4.1-cln.swf.gz', label: 'LANL CM-5 1994-96 (122,060 jobs, 1,024 processors; 2.1 MB)' },
  // A real Slurm's run with its site: the slurm.conf (the cluster and the scheduler's
  // parameters) and sshare (accounts, shares) it ran under load with it (see SOURCES.md).
  { id: 'slurm-gpu', file: 'slurm-gpu-run.sacct', name: 'slurm-gpu-run.sacct', label: 'A real Slurm 22.05 run (60 jobs, 4 nodes of 8 cores and 2 GPUs; its slurm.conf and sshare load with it)', site: { conf: 'slurm-gpu-run.conf', sshare: 'slurm-gpu-run.sshare' } },
];

export const MAX_BYTES = 512 * 1024 * 1024;

const cache = new Map(); // "kind:ref" -> Promise of bytes, for demos and URLs (early start, Back / Forward)

async function fetchBytes(url, what) {
  let response;
  try {
    response = await fetch(url);
  } catch (err) {
    // The browser does not say why (a server down, a port it refuses, a page on another site
    // that does not allow cross-origin requests): the likely causes, none asserted.
    throw new Error(`${what}: could not fetch it (${err.message}): no server answered there, or it is on another site and does not allow cross-origin requests (CORS)`);
  }
  if (!response.ok) throw new Error(`${what}: the server answered ${response.status} ${response.statusText}`);
  const buffer = await response.arrayBuffer();
  if (buffer.byteLength > MAX_BYTES) throw new Error(`${what}: larger than ${MAX_BYTES >> 20} MiB`);
  return new Uint8Array(buffer);
}

async function fetchText(url, what) {
  return new TextDecoder().decode(await fetchBytes(url, what));
}

/** {kind, ref, name, label, bytes} for a demo id, an http(s) URL or a generator reference; `gpu`
 * ({share, counts}: the options gpushare and gpucounts) gives a generated workload's GPU jobs.
 * A demo recorded on a Slurm site also gives `site`: {conf, sshare, confName} (its texts). */
export async function loadRemote(kind, ref, gpu = { share: 0, counts: '' }) {
  const gpus = kind === 'gen' && gpu.share > 0;
  const key = gpus ? `${kind}:${ref}:gpu${gpu.share}:${gpu.counts}` : `${kind}:${ref}`;
  let trace;
  if (kind === 'demo') {
    const demo = DEMOS.find((d) => d.id === ref);
    if (!demo) throw new Error(`unknown demo "${ref}"`);
    const url = new URL(`./demo/${demo.file}`, import.meta.url);
    trace = { kind, ref, name: demo.name, label: `demo: ${demo.label}` };
    if (!cache.has(key)) cache.set(key, fetchBytes(url, `demo ${ref}`));
    if (demo.site) {
      const text = (file) => fetchText(new URL(`./demo/${file}`, import.meta.url), `demo ${ref}: ${file}`);
      const siteKey = `${key}:site`;
      if (!cache.has(siteKey)) {
        cache.set(siteKey, Promise.all([text(demo.site.conf), text(demo.site.sshare)])
          .then(([conf, sshare]) => ({ conf, sshare, confName: demo.site.conf })));
      }
      try {
        trace.site = await cache.get(siteKey);
      } catch (err) {
        cache.delete(siteKey);
        throw err;
      }
    }
  } else if (kind === 'url') {
    let url;
    try { url = new URL(ref); } catch { throw new Error(`"${ref.slice(0, 100)}" is not a URL`); }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error(`${ref.slice(0, 100)}: only http(s) URLs can be loaded`);
    const last = url.pathname.split('/').filter(Boolean).pop() || url.hostname;
    let name = last; // a malformed escape (%E0%A4%A) is kept as written: it threw "URI malformed"
    try { name = decodeURIComponent(last); } catch { /* kept */ }
    trace = { kind, ref: url.href, name, label: `URL: ${url.href}` };
    if (!cache.has(key)) cache.set(key, fetchBytes(url, url.href));
  } else if (kind === 'gen') {
    const g = parseGen(ref);
    if (!g) throw new Error(`"${ref.slice(0, 100)}" is not a generator reference (MODEL:PROCS:JOBS:SEED)`);
    // Named as `schedlab generate` names its file.
    const name = `${g.model}-${g.procs}p-${g.jobs}j-seed${g.seed}${gpus ? `-gpu${gpu.share}` : ''}.swf`;
    const share = gpus ? `, ${gpu.share} of them with GPUs (${gpu.counts || 'default counts'})` : '';
    trace = { kind, ref, name, label: `generated: ${g.model} model, ${g.jobs.toLocaleString('en')} jobs${share}, ${g.procs} processors, seed ${g.seed}` };
    if (!cache.has(key)) cache.set(key, Promise.resolve().then(() => call('generate_workload', g.model, g.procs, g.jobs, g.seed, gpus ? gpu.share : 0, gpus ? gpu.counts : '')));
  } else {
    throw new Error(`cannot load a trace of kind "${kind}"`);
  }
  try {
    trace.bytes = await cache.get(key);
  } catch (err) {
    cache.delete(key); // a failed fetch is tried again next time
    throw err;
  }
  return trace;
}

export async function loadFile(file) {
  if (file.size > MAX_BYTES) throw new Error(`${file.name}: larger than ${MAX_BYTES >> 20} MiB`);
  let buffer;
  try {
    buffer = await file.arrayBuffer();
  } catch (err) {
    throw new Error(`${file.name}: could not be read (${err.message})`);
  }
  return { kind: 'file', ref: file.name, name: file.name, label: `uploaded file: ${file.name}`, bytes: new Uint8Array(buffer) };
}
