// The page around the results: results and link marked stale after a change, the skip links,
// the sidebar's height under the header, and a trace dropped on the page.
import { $, debounce } from './ui.js';

/** Marks the shown results and link as the previous settings' (on) or current (off). */
export function setStale(on) {
  document.body.classList.toggle('stale', on);
  for (const id of ['stale-results', 'stale-link']) $(id).hidden = !on;
  $('results').dataset.stale = String(on);
}

/** The skip links move the keyboard's focus, not only the view. */
export function wireSkipLinks() {
  for (const a of document.querySelectorAll('a.skip')) {
    a.addEventListener('click', (e) => {
      const target = document.querySelector(a.getAttribute('href'));
      if (!target) return;
      e.preventDefault();
      target.focus();
      target.scrollIntoView({ block: 'center' });
    });
  }
}

/** The sidebar (sticky, scrolling) fits the first screen below the header: style.css reads
 * --head-h, so that Run and the status line are on the first screen. */
export function fitSidebar() {
  const fit = () => document.documentElement.style.setProperty('--head-h', `${document.querySelector('header.top').offsetHeight}px`);
  fit();
  window.addEventListener('resize', debounce(fit, 100));
}

/** Calls `onFile(files)` with the files dropped on the page, in the order dropped (a hint
 * shows while they are dragged). */
export function wireDrop(onFile) {
  let depth = 0;
  const hasFiles = (e) => [...(e.dataTransfer?.types ?? [])].includes('Files');
  document.addEventListener('dragenter', (e) => { if (hasFiles(e)) { depth++; document.body.classList.add('dragging'); } });
  document.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (!depth) document.body.classList.remove('dragging'); });
  document.addEventListener('dragover', (e) => { if (hasFiles(e)) e.preventDefault(); });
  document.addEventListener('drop', (e) => {
    e.preventDefault();
    depth = 0;
    document.body.classList.remove('dragging');
    const files = [...(e.dataTransfer?.files ?? [])];
    if (files.length) onFile(files);
  });
}
