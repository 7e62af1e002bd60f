// Canvases and figures: sizing at the device pixel ratio, pointer positions in the CSS pixels
// the engine draws in, a figure (caption, PNG button, canvas), and the draw timings the bench reads.
import { el, download } from './ui.js';

export const timings = { ganttDraws: [], heatDraws: [] }; // ms per Gantt / EET heatmap draw (for the bench)

/** The device pixel ratio canvases are drawn at (1 to 4, in quarters). */
export function pixelRatio() {
  const r = Math.round((window.devicePixelRatio || 1) * 4) / 4;
  return Math.min(4, Math.max(1, r));
}

/** Sizes a canvas to its container's width and `height` CSS pixels, at the device pixel ratio:
 * the engine draws in CSS pixels through a context scaled by data-dpr (see src/web/scaled.rs). */
export function sizeCanvas(canvas, height) {
  const width = Math.max(320, Math.floor(canvas.parentElement.clientWidth));
  const r = pixelRatio();
  const [w, h] = [Math.round(width * r), Math.round(height * r)];
  if (canvas.width !== w) canvas.width = w;
  if (canvas.height !== h) canvas.height = h;
  if (canvas.dataset.dpr !== String(r)) canvas.dataset.dpr = String(r);
  canvas.style.height = `${height}px`;
}

/** The pointer's position on a canvas in the CSS pixels the engine draws in. */
export function canvasPoint(canvas, event) {
  const box = canvas.getBoundingClientRect();
  const r = Number(canvas.dataset.dpr) || 1;
  return {
    x: (event.clientX - box.left) * (canvas.width / r / box.width),
    y: (event.clientY - box.top) * (canvas.height / r / box.height),
  };
}

function slug(text) { return text.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '') || 'chart'; }

/** Gives a chart its text alternative: what it shows, generated from its data (the canvas is an
 * image to assistive technology; its label is the caption until the first draw). */
export function describe(canvas, text) {
  canvas.setAttribute('aria-label', text);
}

/** A figure with a caption, a PNG button and a canvas (an image whose text alternative starts as
 * the caption; the view sets the summary of its data with describe()). */
export function figure(testid, caption, height, extra = {}, prepare = () => {}) {
  const canvas = el('canvas', { 'data-testid': testid, height, role: 'img', 'aria-label': caption, ...extra });
  const png = el('button', { type: 'button', class: 'small', title: 'Download this chart as PNG', 'data-testid': 'export-png',
    onclick: () => { prepare(); canvas.toBlob((b) => b && download(`schedlab-${slug(caption)}.png`, b), 'image/png'); } }, 'PNG');
  const node = el('figure', { class: 'chart' },
    el('figcaption', {}, el('span', {}, caption), png), el('div', { class: 'canvas-wrap' }, canvas));
  return { node, canvas, height };
}
