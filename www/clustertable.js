// The cluster panel's table editor (docs/cluster-model.md, "The page"): a table of node groups
// and a table of partitions, a row each, every cell the text the user edits. The tables are a
// view of the parsed cluster (the engine's cluster_table) and are built back by the engine
// (cluster_from_table, through the compact form's own readers): an error comes back naming its
// row and column and is shown beside that cell; a valid edit hands the cluster to the panel,
// whose compact form the next run and the share link use.
import { call } from './engine.js';
import { el } from './ui.js';

// [field, column header, placeholder, width in characters]; a select lists its values.
const GROUP = [
  ['nodes', 'Nodes', 'n[1-16]', 10], ['count', 'Count', '', 4], ['cores', 'Cores', '', 4],
  ['memory', 'Memory (MB)', '1', 7], ['gpus', 'GPUs per node', 'a100=4', 7],
  ['weight', 'Weight', '1', 3], ['features', 'Features', 'ib,nvme', 7],
];
const PARTITION = [
  ['name', 'Name', 'batch', 6], ['nodes', 'Nodes', 'ALL', 10], ['default', 'Default'],
  ['max_time', 'MaxTime', 'UNLIMITED', 10], ['default_time', 'DefaultTime', '', 8], ['max_nodes', 'MaxNodes', 'UNLIMITED', 5],
  ['job_factor', 'PriorityJobFactor', '1', 3], ['tier', 'PriorityTier', '1', 3],
  ['oversubscribe', 'OverSubscribe', ['NO', 'EXCLUSIVE', 'YES:4', 'FORCE:4']],
  ['state', 'State', ['UP', 'DOWN', 'DRAIN', 'INACTIVE']],
];
const TABLES = { groups: ['Node groups', 'node group', GROUP], partitions: ['Partitions', 'partition', PARTITION] };

export class ClusterTables {
  /** root: the tables' container; onCluster(described): the tables made a valid cluster. */
  constructor(root, onCluster) {
    this.root = root;
    this.onCluster = onCluster;
    this.table = { groups: [], partitions: [] };
    this.errors = [];
    this.compact = null;
    this.fill('');
  }

  /** Shows the cluster of compact form `compact` ('' : none, empty tables). */
  fill(compact) {
    if (compact === this.compact && !this.errors.length) return;
    this.compact = compact;
    this.errors = [];
    try {
      this.table = compact ? call('cluster_table', compact) : { groups: [], partitions: [] };
    } catch {
      this.table = { groups: [], partitions: [] };
    }
    this.render();
  }

  /** Why the tables cannot make a cluster ('' when they can or hold what the form holds). */
  problem() {
    const e = this.errors[0];
    if (!e) return '';
    return e.table ? `${TABLES[e.table][1]} ${e.row + 1}, ${this.header(e)}: ${e.message}` : e.message;
  }

  header(e) {
    return TABLES[e.table][2].find(([f]) => f === e.column)?.[1] ?? '';
  }

  /** Reads the cells, asks the engine, shows the errors or hands the cluster on. */
  edited() {
    this.editing = true;
    const r = call('cluster_from_table', this.table);
    this.errors = r.errors;
    if (r.cluster) {
      this.compact = null; // re-read from the cluster's canonical form
      this.onCluster(r.cluster);
    } else {
      this.render();
    }
  }

  /** Draws the tables now, or after an edit (whose change event comes while the focus moves
   * on) once the focus has moved, so that it stays on the cell it went to. */
  render() {
    clearTimeout(this.timer);
    if (this.editing) this.timer = setTimeout(() => this.draw(), 0);
    else this.draw();
  }

  draw() {
    this.editing = false;
    const focus = document.activeElement?.closest?.('[data-cell]')?.dataset.cell;
    const general = this.errors.filter((e) => !e.table).map((e) => e.message);
    this.root.replaceChildren(
      ...Object.keys(TABLES).map((t) => this.renderTable(t)),
      el('p', { class: 'error-text', role: 'alert', 'data-testid': 'cluster-table-error', hidden: !general.length }, general.join(' ')),
    );
    if (focus) this.root.querySelector(`[data-cell="${focus}"]`)?.focus();
  }

  renderTable(t) {
    const [title, one, cols] = TABLES[t];
    const rows = this.table[t];
    const id = `cluster-${t}-title`;
    const head = el('tr', {}, cols.map(([, h]) => el('th', { scope: 'col' }, h)), el('th', { scope: 'col' }, el('span', { class: 'sr-only' }, 'Remove')));
    const body = rows.map((row, k) => el('tr', { 'data-testid': `cluster-${t}-row` },
      cols.map((c) => this.renderCell(t, k, c, row)),
      el('td', {}, el('button', {
        type: 'button', class: 'small', 'data-cell': `${t}-${k}-remove`, 'aria-label': `Remove ${one} ${k + 1}`,
        onclick: () => { rows.splice(k, 1); this.edited(); },
      }, '×'))));
    return el('div', { class: 'cluster-table' },
      el('h3', { id, class: 'small' }, title),
      el('div', { class: 'table-scroll', role: 'region', 'aria-labelledby': id, tabindex: '0' },
        el('table', { 'data-testid': `cluster-${t}` }, el('thead', {}, head), el('tbody', {}, body))),
      el('button', {
        type: 'button', class: 'small', 'data-testid': `cluster-add-${t}`,
        onclick: () => {
          rows.push(t === 'groups' ? { cores: '1' } : { nodes: 'ALL', default: rows.length === 0 });
          this.draw();
          this.root.querySelector(`[data-cell="${t}-${rows.length - 1}-${cols[0][0]}"]`)?.focus();
        },
      }, `Add a ${one}`));
  }

  renderCell(t, k, [field, header, kind, width], row) {
    const one = TABLES[t][1];
    const error = this.errors.find((e) => e.table === t && e.row === k && e.column === field);
    const errId = `cluster-${t}-${k}-${field}-error`;
    const attrs = {
      'data-cell': `${t}-${k}-${field}`, 'data-field': field, 'aria-label': `${one} ${k + 1}: ${header}`,
      'aria-invalid': error ? 'true' : undefined, 'aria-describedby': error ? errId : undefined,
    };
    let control;
    if (field === 'default') {
      control = el('input', { ...attrs, type: 'checkbox', checked: Boolean(row.default), onchange: (e) => { row.default = e.target.checked; this.edited(); } });
    } else if (Array.isArray(kind)) {
      const value = row[field] || kind[0];
      const values = kind.includes(value) ? kind : [...kind, value];
      control = el('select', { ...attrs, onchange: (e) => { row[field] = e.target.value; this.edited(); } },
        values.map((v) => el('option', { value: v, selected: v === value }, v)));
    } else {
      control = el('input', {
        ...attrs, type: 'text', value: row[field] ?? '', placeholder: kind || undefined, size: width, spellcheck: 'false',
        onchange: (e) => { row[field] = e.target.value; this.edited(); },
      });
    }
    return el('td', { class: error ? 'invalid' : undefined }, control,
      error ? el('span', { class: 'cell-error', id: errId, 'data-testid': 'cluster-cell-error' }, error.message) : null);
  }
}
