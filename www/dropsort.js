// Files dropped on the page together, sorted to where each is read (an admin drops a Slurm
// run's sacct dump with its slurm.conf and sshare file at once): a trace (sacct, SWF, Batsim
// JSON, gzip) is loaded as a file picked under “A file or URL”; a slurm.conf or an Alea
// `.machines` file goes to the Cluster panel as if chosen there; an sshare, qos or assoc dump
// (sacctmgr) to the panel's input of that name. Before, every file but a `.machines` one was a
// trace and the first alone was read: the slurm.conf and sshare dropped beside the log were
// lost, or the slurm.conf was read as the trace. No DOM here: app.js reads what this sorts.

/** The bytes of a file's start that say what it is. */
const HEAD = 8192;

/** The header fields of a dump's first line (sacct, sshare, sacctmgr: `|` with -P, else commas
 * or spaces). */
const fieldsOf = (line) => line.trim().split(/\s*[|,]\s*|\s+/).map((f) => f.toLowerCase());

/** What a dropped file is, by its name and its first bytes (`head`, a Uint8Array):
 * 'trace' | 'sacct' (a trace: Slurm's log) | 'cluster' (slurm.conf, Alea machines) | 'sshare' |
 * 'qos' | 'assoc' | 'unknown'. */
export function kindOf(name, head) {
  const lower = name.toLowerCase();
  if (lower.endsWith('.machines')) return 'cluster';
  if ((head[0] === 0x1f && head[1] === 0x8b) || lower.endsWith('.gz')) return 'trace';
  const text = new TextDecoder().decode(head).replace(/^\uFEFF/, '');
  const first = text.split(/\r\n|\r|\n/).find((l) => l.trim() !== '') ?? '';
  const start = first.trimStart();
  if (start.startsWith('{') || start.startsWith('[')) {
    // sacct --json: Slurm's `meta` and `jobs`, or a job's `job_id` and `submission` (as the
    // engine tells it, src/workload/mod.rs); any other JSON is Batsim's.
    const slurm = (/"meta"/.test(text) && /"jobs"/.test(text)) || (/"job_id"/.test(text) && /"submission"/.test(text));
    return slurm ? 'sacct' : 'trace';
  }
  const f = fieldsOf(first);
  // sacct (-P, a delimiter of one's own, or fixed width): its JobID and a time or state column
  // (a submit log's "name,arrival_s,submitted_s,jobid" is none).
  if ((f.includes('jobid') || f.includes('jobidraw'))
    && f.some((x) => ['submit', 'start', 'end', 'state', 'elapsed', 'elapsedraw', 'eligible'].includes(x))) return 'sacct';
  // sshare and sacctmgr dumps as the panel asks for them: -P, fields split by `|` (a CSV with
  // account and user columns, such as a workload's, is none of them).
  if (first.includes('|')) {
    if (f.includes('rawshares')) return 'sshare';
    if (f[0] === 'name' && f.some((x) => x === 'priority' || x === 'usagefactor' || x.startsWith('max') || x.startsWith('grp'))) return 'qos';
    if (f.includes('account') && f.some((x) => x === 'user' || x === 'cluster' || x === 'parentname' || x === 'share')) return 'assoc';
  }
  // slurm.conf: its partitions, or nodes with their cores or memory (a gres.conf's NodeName
  // lines name devices, not cores: it is none of the page's).
  if (/^[ \t]*PartitionName[ \t]*=/im.test(text)
    || /^[ \t]*NodeName[ \t]*=[^\n]*\b(CPUs|RealMemory|Sockets|CoresPerSocket|ThreadsPerCore|Boards)[ \t]*=/im.test(text)) {
    return 'cluster';
  }
  // SWF: header comments (`;`) or a job line of numbers.
  if (start.startsWith(';') || /^-?\d+(\.\d+)?([ \t]+-?[\d.]+){3,}/.test(start)) return 'trace';
  return 'unknown';
}

/** Sorts dropped `files` (in the order dropped): `{trace, sacct, cluster, slurmConf, sshare,
 * qos, assoc, extra}` — the first trace (null when none) and whether it is an sacct log, the
 * cluster files and whether one is a slurm.conf (not an Alea file), the site's last file of
 * each kind (null when none), and the files left out with why (a second trace, a file of no
 * kind the page reads). A single file of no known kind is the trace, as before (the trace
 * reader says what is wrong with it). */
export async function sortDropped(files) {
  const out = { trace: null, sacct: false, cluster: [], slurmConf: false, sshare: null, qos: null, assoc: null, extra: [] };
  const unknown = [];
  for (const file of files) {
    let head;
    try {
      head = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
    } catch {
      head = new Uint8Array(0); // read as a trace below, whose reader says why it cannot be read
    }
    const kind = kindOf(file.name, head);
    if (kind === 'trace' || kind === 'sacct') {
      if (out.trace) out.extra.push({ file, why: `one trace at a time: ${out.trace.name} is the one read` });
      else { out.trace = file; out.sacct = kind === 'sacct'; }
    } else if (kind === 'cluster') {
      out.cluster.push(file);
      if (!file.name.toLowerCase().endsWith('.machines')) out.slurmConf = true;
    }
    else if (kind === 'unknown') unknown.push(file);
    else {
      if (out[kind]) out.extra.push({ file: out[kind], why: `${file.name} is the ${kind} file read` });
      out[kind] = file;
    }
  }
  if (!out.trace && files.length === 1 && unknown.length === 1) out.trace = unknown.pop();
  for (const file of unknown) {
    out.extra.push({ file, why: 'not a trace (sacct, SWF, Batsim JSON), a slurm.conf, an Alea .machines file, nor an sshare, qos or assoc dump' });
  }
  return out;
}
