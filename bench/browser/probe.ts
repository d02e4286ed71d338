/**
 * What the browser benchmarks measure inside the page, with the page's own clock (performance.now()):
 *
 * - a scroll from top to bottom at a steady pace, and the time between its animation frames (the deltas of
 *   requestAnimationFrame timestamps) and the long tasks (PerformanceObserver) meanwhile;
 * - an interaction (a key or a click): from the input event's timestamp to the first frame painted after the last
 *   change it made to the DOM. The probe logs every input event, every DOM mutation and every frame; an interaction
 *   is over once the DOM has been quiet for a while, and its latency is read from the log. This needs no selector of
 *   the page's markup, so the same measure runs on the dashboard and on a plain page.
 *
 * The functions marked "in the page" are sent to the browser by `page.evaluate`: they use nothing from outside.
 */
import type { Page } from 'playwright-core';

interface ProbeLog {
  /** Timestamps of input events (keydown, pointerdown). */
  inputs: number[];
  /** When each batch of DOM mutations was seen (a microtask after the task that made them). */
  mutations: number[];
  /** The first moment after each frame's rendering (a task queued from requestAnimationFrame): the frame is painted. */
  painted: number[];
}

declare global {
  interface Window {
    __benchProbe?: ProbeLog;
  }
}

/** In the page: starts logging inputs, DOM mutations and painted frames (once per document). */
function installProbe(): void {
  if (window.__benchProbe) return;
  const log: ProbeLog = { inputs: [], mutations: [], painted: [] };
  window.__benchProbe = log;
  new MutationObserver(() => log.mutations.push(performance.now())).observe(document, {
    subtree: true,
    childList: true,
    attributes: true,
    characterData: true,
  });
  for (const type of ['keydown', 'pointerdown']) {
    window.addEventListener(type, (event) => log.inputs.push(event.timeStamp), { capture: true });
  }
  const channel = new MessageChannel();
  channel.port1.onmessage = () => log.painted.push(performance.now());
  const frame = () => {
    // A message posted during the frame is delivered in the first task after its rendering.
    channel.port2.postMessage(null);
    requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
}

export interface InteractionSample {
  /** Input event to the first frame painted after its last DOM change, ms. */
  latencyMs: number;
  /** DOM mutation batches the interaction caused (0: the screen changed only where the browser draws itself). */
  mutations: number;
}

/** In the page: the interaction that started after `since`, once the DOM has been quiet for `quietMs`; else null. */
function readInteraction({ since, quietMs }: { since: number; quietMs: number }): InteractionSample | null {
  const log = window.__benchProbe;
  if (!log) throw new Error('the probe is not installed');
  const input = log.inputs.find((t) => t >= since);
  if (input === undefined) return null;
  const mutations = log.mutations.filter((t) => t >= input);
  const last = mutations.length > 0 ? mutations[mutations.length - 1]! : input;
  if (performance.now() - last < quietMs) return null;
  const painted = log.painted.find((t) => t > last);
  if (painted === undefined) return null;
  // Keep the log short: what came before this interaction is read no more.
  log.inputs = log.inputs.filter((t) => t > input);
  log.mutations = log.mutations.filter((t) => t > last);
  log.painted = log.painted.filter((t) => t > painted);
  return { latencyMs: painted - input, mutations: mutations.length };
}

/** Installs the probe in the page (again after each navigation). */
export async function installInteractionProbe(page: Page): Promise<void> {
  await page.evaluate(installProbe);
}

/**
 * Runs `act` (a key press, a click) and measures it: input event to the first frame painted after its last DOM
 * change, once the DOM has been quiet for `quietMs` (default 500 ms: longer than any pause inside one update).
 */
export async function measureInteraction(
  page: Page,
  act: () => Promise<void>,
  { quietMs = 500, timeoutMs = 30_000 }: { quietMs?: number; timeoutMs?: number } = {},
): Promise<InteractionSample> {
  const since = await page.evaluate(() => performance.now());
  await act();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const sample = await page.evaluate(readInteraction, { since, quietMs });
    if (sample) return sample;
    if (Date.now() > deadline) throw new Error(`no input event or no quiet DOM within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** In the page: whether the DOM has been quiet for `quietMs` and a frame has been painted since its last change. */
function isQuiet({ quietMs }: { quietMs: number }): boolean {
  const log = window.__benchProbe;
  if (!log) throw new Error('the probe is not installed');
  const last = log.mutations.length > 0 ? log.mutations[log.mutations.length - 1]! : 0;
  log.mutations = log.mutations.slice(-100);
  log.painted = log.painted.slice(-100);
  return performance.now() - last >= quietMs && log.painted.some((t) => t > last);
}

/** Waits until the page's DOM has been quiet for `quietMs` (after a navigation, a view switch, a cleared search). */
export async function waitForQuiet(page: Page, quietMs = 500, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await page.evaluate(isQuiet, { quietMs }))) {
    if (Date.now() > deadline) throw new Error(`the page did not settle within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

export interface ScrollSample {
  /** Milliseconds between consecutive animation frames during the scroll. */
  frames: number[];
  /** Durations of the long tasks (over 50 ms) during the scroll. */
  longTasks: number[];
  /** Scroll height of the scrolled element, px, and how far the scroll went. */
  height: number;
  reached: number;
  /** What scrolled: `document` (the page) or a tag name of a scrolling element. */
  scroller: string;
}

/**
 * In the page: scrolls the page's main scrolling area (the document, or else the element with the most to scroll)
 * from top to bottom in `durationMs`, at a steady pace: each frame sets the position the elapsed time calls for.
 */
async function scrollThrough({ durationMs }: { durationMs: number }): Promise<ScrollSample> {
  const root = document.scrollingElement ?? document.documentElement;
  let scroller: Element = root;
  let most = root.scrollHeight - root.clientHeight;
  for (const el of document.querySelectorAll('*')) {
    const room = el.scrollHeight - el.clientHeight;
    if (room > most + 1 && /(auto|scroll)/.test(getComputedStyle(el).overflowY)) {
      scroller = el;
      most = room;
    }
  }
  const nextFrame = () => new Promise<number>((resolve) => requestAnimationFrame(resolve));
  scroller.scrollTop = 0;
  await nextFrame();
  await nextFrame();
  const longTasks: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) longTasks.push(entry.duration);
  });
  observer.observe({ type: 'longtask' });
  const frames: number[] = [];
  const start = await nextFrame();
  let last = start;
  for (;;) {
    const max = scroller.scrollHeight - scroller.clientHeight;
    const progress = Math.min(1, (last - start) / durationMs);
    scroller.scrollTop = progress * max;
    if (progress >= 1) break;
    const t = await nextFrame();
    frames.push(t - last);
    last = t;
  }
  // Long tasks are reported after they end: give the last one a frame to arrive.
  await nextFrame();
  for (const entry of observer.takeRecords()) longTasks.push(entry.duration);
  observer.disconnect();
  return {
    frames,
    longTasks,
    height: scroller.scrollHeight,
    reached: scroller.scrollTop + scroller.clientHeight,
    scroller: scroller === root ? 'document' : scroller.tagName.toLowerCase(),
  };
}

/** Scrolls the page from top to bottom in `durationMs` and answers its frame times and long tasks. */
export function measureScroll(page: Page, durationMs: number): Promise<ScrollSample> {
  return page.evaluate(scrollThrough, { durationMs });
}

/** In the page: the height of its main scrolling area, px. */
function scrollHeight(): number {
  let most = (document.scrollingElement ?? document.documentElement).scrollHeight;
  for (const el of document.querySelectorAll('*')) {
    if (el.scrollHeight > most && /(auto|scroll)/.test(getComputedStyle(el).overflowY)) most = el.scrollHeight;
  }
  return most;
}

export function pageScrollHeight(page: Page): Promise<number> {
  return page.evaluate(scrollHeight);
}
