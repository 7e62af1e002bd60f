// Charts drawn lazily: one per animation frame, only when on screen (or when exported), so that a
// page of many charts never stalls. A view keeps `items` ({canvas, height, dirty, visible, ...})
// and implements draw(item); this class tracks visibility and schedules the draws.
import { figure, sizeCanvas } from './figure.js';
import { scheduleDraws } from './ui.js';

export class LazyFigures {
  /** describe(item): how a failed draw names the chart. */
  constructor(describe) {
    this.items = [];
    this.pending = false;
    this.describe = describe;
    this.observer = new IntersectionObserver((entries) => {
      for (const e of entries) {
        const item = this.items.find((i) => i.canvas === e.target);
        if (item) item.visible = e.isIntersecting;
      }
      this.schedule();
    }, { rootMargin: '200px 0px' });
  }

  /** A new item: a figure (see figure.js) whose PNG export draws it first if needed. */
  item(testid, caption, height, extra = {}, fields = {}) {
    const item = { dirty: true, visible: false, ...fields };
    Object.assign(item, figure(testid, caption, height, extra, () => item.dirty && this.drawTimed(item)));
    return item;
  }

  /** Replaces the items (after their nodes are in the document). */
  track(items) {
    this.observer.disconnect();
    this.items = items;
    for (const item of items) {
      sizeCanvas(item.canvas, item.height);
      this.observer.observe(item.canvas);
    }
    this.schedule();
  }

  redraw() {
    for (const item of this.items) item.dirty = true;
    this.schedule();
  }

  schedule() { scheduleDraws(this, this.describe); }

  /** The scheduler's entry: sizes the canvas, draws, records how long it took in item.ms. */
  draw(item) { this.drawTimed(item); }

  drawTimed(item) {
    const began = performance.now();
    item.dirty = false;
    sizeCanvas(item.canvas, item.height);
    this.paint(item);
    item.ms = performance.now() - began;
    LazyFigures.draws.push({ testid: item.canvas.dataset.testid, ms: item.ms });
    if (LazyFigures.draws.length > 400) LazyFigures.draws.shift();
  }

  /** Draws every item now (for the bench and the PNG of the whole view). */
  drawAll() {
    for (const item of this.items) this.drawTimed(item);
  }
}

/** Every lazy draw: {testid, ms} (for the bench). */
LazyFigures.draws = [];
