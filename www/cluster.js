// The cluster panel (docs/cluster-model.md): no cluster (the trace's processors as one pool,
// as always), a preset, or a cluster of one's own from slurm.conf lines (pasted, or read from
// a file; or an Alea `.machines` file's lines, chosen here or dropped on the page), from the tables of node groups and partitions (clustertable.js: whatever made the
// cluster, the tables show it) or from its compact form. The form control `opt-cluster` holds the compact form: the
// option `cluster` of the options schema, which the worker hands the engine and the link
// carries as `cluster=` (a file's text never travels; the compact form of what it made does).
// The engine reads and checks every cluster here (cluster_from_conf, cluster_from_compact) and
// gives its summary; an error names the line (slurm.conf) or the item (compact form).
import { call } from './engine.js';
import { $ } from './ui.js';
import { ClusterTables } from './clustertable.js';

/** The site's files besides its slurm.conf, in slurm_site_note's order after it. */
const SITE_FILES = ['sshare', 'qos', 'assoc'];

export class ClusterPanel {
  /** onChange() after the user changes the cluster (the results become stale). */
  constructor(onChange) {
    this.presets = new Map(call('cluster_presets'));
    // The site the slurm policy reads: the last slurm.conf read (its scheduler parameters), an
    // sshare upload, a qos upload (sacctmgr's QOS priorities) and an assoc upload (sacctmgr's
    // association limits); files, never in a link (as traces).
    this.site = { conf: null, sshare: null, qos: null, assoc: null };
    // The names of the files they came from, which the engine's errors name ('' for lines
    // pasted or a demo's: the engine's slurm.conf, sshare, qos, assoc).
    this.names = { conf: '', sshare: '', qos: '', assoc: '' };
    const changed = () => { this.syncPreset(); onChange(); };
    // The tables: a valid edit becomes the form's compact form.
    this.tables = new ClusterTables($('cluster-tables'), (c) => { $('opt-cluster').value = c.compact; this.confError = ''; this.show(c); changed(); });
    this.confError = ''; // why the slurm.conf lines last read make no cluster (problem())
    $('cluster-preset').addEventListener('change', () => {
      const v = $('cluster-preset').value;
      if (v === 'custom') { $('cluster-conf').focus(); return; }
      $('opt-cluster').value = v ? this.presets.get(v) ?? '' : '';
      this.site.conf = null; // a preset is not the slurm.conf's site
      this.showSite();
      this.refresh();
      changed();
    });
    $('cluster-apply').addEventListener('click', () => { this.fromConf($('cluster-conf').value); changed(); });
    $('cluster-file').addEventListener('change', async () => {
      const file = $('cluster-file').files?.[0];
      if (!file) return;
      await this.fromFile(file);
      $('cluster-file').value = '';
      changed();
    });
    this.changed = changed;
    // The site's files: each read through slurm_site_note (an error names the file, line and
    // field), then kept with its name.
    for (const key of SITE_FILES) {
      const input = $(`cluster-${key}`);
      input.addEventListener('change', async () => {
        const file = input.files?.[0];
        if (!file) return;
        await this.siteFile(key, file);
        input.value = '';
        changed();
      });
    }
    // An edited compact form (the app marks the results stale on every option's change).
    $('opt-cluster').addEventListener('change', () => { this.refresh(); this.syncPreset(); });
  }

  /** A demo's Slurm site (trace.js: {conf, sshare, confName}) becomes the slurm policy's site;
   * with `cluster`, its slurm.conf's nodes and partitions become the cluster too (a demo chosen
   * in the page), else the form's cluster stays (a link's, perhaps a what-if of it). */
  useSite(site, { cluster }) {
    this.demoSite = { conf: site.conf, sshare: site.sshare };
    if (cluster) {
      $('cluster-conf').value = site.conf;
      this.fromConf(site.conf, site.confName);
      this.demoSite.compact = $('opt-cluster').value; // the demo's machine (leaveDemoSite)
    } else {
      this.site.conf = site.conf;
      this.names.conf = '';
      this.refresh(); // the demo's slurm.conf notes, when the link's cluster is its
    }
    this.site.sshare = site.sshare;
    this.names.sshare = '';
    this.showSite();
    this.syncPreset(); // opens the panel on the cluster that came with the demo
  }

  /** Another trace than a Slurm demo's is loaded: the demo's machine (its cluster, slurm.conf
   * and sshare) goes with the demo, unless the user has changed it since (then it is theirs).
   * Before, the HPC2N demo chosen after the Slurm demo ran on the demo's 4 nodes of 8 cores
   * (443 jobs skipped, a two-minute run). Returns whether anything went. */
  leaveDemoSite() {
    const demo = this.demoSite;
    if (!demo) return false;
    this.demoSite = null;
    let left = false;
    if (this.site.conf === demo.conf && this.site.sshare === demo.sshare) {
      this.site.conf = null;
      this.site.sshare = null;
      left = true;
    }
    if (demo.compact !== undefined && $('opt-cluster').value === demo.compact) {
      $('opt-cluster').value = '';
      if ($('cluster-conf').value === demo.conf) $('cluster-conf').value = '';
      this.refresh();
      left = true;
    }
    if (left) this.showSite();
    return left;
  }

  /** The slurm policy's site as it is now, for `restore` (a run's site, kept with its results). */
  snapshot() {
    return { site: { ...this.site }, names: { ...this.names }, demoSite: this.demoSite, lines: $('cluster-conf').value };
  }

  /** Puts back a `snapshot` (the shown comparison's site, after a link's run that showed nothing;
   * the form's cluster is the form's, written with it). */
  restore(snap) {
    if (!snap) return;
    this.site = { ...snap.site };
    if (snap.names) this.names = { ...snap.names };
    this.demoSite = snap.demoSite;
    $('cluster-conf').value = snap.lines;
    this.showSite();
  }

  /** Reads a cluster file (a slurm.conf, or an Alea `.machines` file) chosen in the panel or
   * dropped on the page beside the trace. */
  async fromFile(file) {
    try {
      const text = await file.text();
      $('cluster-conf').value = text;
      this.fromConf(text, file.name);
    } catch (err) {
      this.show(null, `${file.name}: ${err.message}`);
    }
  }

  /** Reads the site's file of kind `key` ('sshare', 'qos' or 'assoc'), chosen at the panel's
   * input of that name or dropped on the page (dropsort.js), through slurm_site_note (an error
   * names the file, line and field); kept with its name. */
  async siteFile(key, file) {
    const at = SITE_FILES.indexOf(key) + 1;
    try {
      const text = await file.text();
      const args = [null, null, null, null];
      const names = ['', '', '', ''];
      args[at] = text;
      names[at] = file.name;
      call('slurm_site_note', ...args, names);
      this.site[key] = text;
      this.names[key] = file.name;
      this.showSite();
    } catch (err) {
      this.show(null, err.message);
    }
  }

  /** Files dropped on the page (dropsort.js: `cluster`, a slurm.conf or `.machines` file
   * each, and the site's `sshare`, `qos`, `assoc` file or null), beside the trace or alone:
   * read as if chosen in the panel, which opens on them. */
  async dropped({ cluster = [], ...site }) {
    for (const file of cluster) await this.fromFile(file);
    for (const key of SITE_FILES) if (site[key]) await this.siteFile(key, site[key]);
    $('cluster-panel').open = true;
    this.changed();
  }

  /** Reads slurm.conf lines (or an Alea `.machines` file's) into the compact form; `name`
   * names a file in errors. */
  fromConf(text, name = '') {
    this.confError = '';
    if (!text.trim()) {
      this.show(null, 'No slurm.conf lines to read: paste NodeName= and PartitionName= lines.');
      return;
    }
    try {
      const c = call('cluster_from_conf', text, name || undefined);
      $('opt-cluster').value = c.compact;
      // An Alea file's nodes make the cluster; it holds no scheduler parameters for the
      // slurm policy's site (a slurm.conf read before keeps its own).
      if (!c.alea) {
        this.site.conf = text;
        this.names.conf = name;
      }
      // A bad value of a key the slurm policy reads, named by the file, the line and the key
      // as the CLI names it, now rather than at the slurm run (the cluster itself is good).
      this.show(c, (c.conf_errors ?? []).join(' · '));
      this.showSite();
    } catch (err) {
      // Lines that make no cluster: Run refuses until they are fixed or another cluster is
      // chosen (before, it ran on the cluster the form held, the old one or none, silently).
      this.confError = `${name || 'the slurm.conf lines'} make no cluster (${err.message}): fix them and press “Use these lines”, or choose a cluster`;
      this.show(null, err.message);
    }
  }

  /** Shows the cluster the form holds (after a link set the form, or an edit). */
  refresh() {
    this.confError = ''; // the form's cluster is set anew (a link, a preset, an edit)
    const text = $('opt-cluster').value.trim();
    if (!text) { this.show(null); return; }
    try {
      this.show(this.ofSiteConf(text) ?? call('cluster_from_compact', text));
    } catch (err) {
      this.show(null, err.message);
    }
    $('opt-cluster').classList.toggle('invalid', $('cluster-error').hidden === false);
    this.syncPreset();
  }

  /** The site's slurm.conf as the panel reads it, when the form's cluster (`text`) is its own:
   * its notes (the keys the slurm policy does not model) are said as when it was read. A demo's
   * link carries its cluster as `cluster=`: reopened, the page said none of the notes the demo
   * picked from the menu says. `null` otherwise. */
  ofSiteConf(text) {
    if (this.site.conf === null) return null;
    try {
      const c = call('cluster_from_conf', this.site.conf, this.names.conf || undefined);
      return !c.alea && c.compact === text ? c : null;
    } catch {
      return null;
    }
  }

  /** The preset select follows the compact form: a preset's, none, or one of one's own. */
  syncPreset() {
    const text = $('opt-cluster').value.trim();
    const preset = [...this.presets].find(([, c]) => c === text)?.[0];
    $('cluster-preset').value = !text ? '' : preset ?? 'custom';
    if (text) $('cluster-panel').open = true;
  }

  /** Why the form's cluster cannot run ('' when it can, or when there is none): slurm.conf
   * lines last read that made no cluster, the tables' error while they hold one (an edit not yet
   * made into a cluster), else the form's. */
  problem() {
    if (this.confError) return this.confError;
    const pending = this.tables.problem();
    if (pending) return pending;
    const text = $('opt-cluster').value.trim();
    if (!text) return '';
    try { call('cluster_from_compact', text); return ''; } catch (err) { return err.message; }
  }

  /** Which parts of the slurm policy's site the user read ({conf, sshare, qos, assoc}: true for a
   * file or lines of one's own; a demo's site comes with the demo's link), with the names of the
   * sshare, qos and assoc files of one's own (`sshareName`, `qosName`, `assocName`; null
   * otherwise), which a link names (their content cannot travel). */
  ownSite() {
    const demo = this.demoSite ?? {};
    const sshare = this.site.sshare !== null && this.site.sshare !== demo.sshare;
    const qos = this.site.qos !== null;
    const assoc = this.site.assoc !== null;
    return {
      conf: this.site.conf !== null && this.site.conf !== demo.conf,
      sshare,
      qos,
      assoc,
      sshareName: sshare ? this.names.sshare || 'sshare' : null,
      qosName: qos ? this.names.qos || 'qos' : null,
      assocName: assoc ? this.names.assoc || 'assoc' : null,
    };
  }

  /** Whether the slurm policy reads an sshare, qos or assoc file of one's own now. */
  hasOwnFiles() {
    const own = this.ownSite();
    return { sshare: own.sshare, qos: own.qos, assoc: own.assoc };
  }

  /** What the worker hands Session::new for the slurm policy's site (slurm_conf, sshare, qos,
   * assoc texts). */
  siteOptions() {
    const o = {};
    if (this.site.conf !== null) o.slurm_conf = this.site.conf;
    if (this.site.sshare !== null) o.sshare = this.site.sshare;
    if (this.site.qos !== null) o.qos = this.site.qos;
    if (this.site.assoc !== null) o.assoc = this.site.assoc;
    if (this.names.conf) o.slurm_conf_name = this.names.conf;
    if (this.names.sshare) o.sshare_name = this.names.sshare;
    if (this.names.qos) o.qos_name = this.names.qos;
    if (this.names.assoc) o.assoc_name = this.names.assoc;
    return o;
  }

  /** The note on the sshare and qos files against the trace the last run read (the engine's
   * `sshare_note` and `qos_note` in the trace's facts, what `schedlab run --sshare --qos`
   * prints): its users or accounts without an association there, its QOS the qos file lacks.
   * Shown above the results, where one looks after a run (the panel may be closed). Empty:
   * none, or no run yet with these files. */
  showSshareNote(note = '') {
    $('sshare-note').hidden = !note;
    $('sshare-note').textContent = note;
  }

  /** What the `slurm` policy read of the loops' phases from the log (the facts' `phases_note`,
   * what `schedlab run -p slurm` prints), above the results; `''` hides it. */
  showPhasesNote(note = '') {
    $('phases-note').hidden = !note;
    $('phases-note').textContent = note;
  }

  showSite() {
    this.showSshareNote(); // said again by the next run's facts, against its trace
    let note = '';
    const names = [this.names.conf, this.names.sshare, this.names.qos, this.names.assoc];
    try { note = call('slurm_site_note', this.site.conf, this.site.sshare, this.site.qos, this.site.assoc, names); } catch (err) { note = err.message; }
    $('cluster-site').hidden = !note;
    $('cluster-site').textContent = note;
  }

  show(c, error = '') {
    if (c) this.tables.fill(c.compact);
    else if (!error) this.tables.fill('');
    $('cluster-error').hidden = !error;
    $('cluster-error').textContent = error;
    const notes = c?.notes ?? [];
    $('cluster-notes').hidden = !notes.length;
    $('cluster-notes').textContent = notes.join(' · ');
    $('cluster-summary').hidden = !c;
    $('cluster-summary').textContent = c ? c.summary : '';
  }
}
