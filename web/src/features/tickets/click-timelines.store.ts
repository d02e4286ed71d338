import { create } from 'zustand';
import type { ClickMinute } from '../../lib/sparkline';
import { onSessionUserChange } from '../../lib/session.store';
import { getClickTimeline } from './api/get-click-timeline';

/** A link's timeline is read again at most this often while its clicks keep changing (pushes come a few a second). */
export const TIMELINE_REFRESH_MS = 2_000;

export interface ClickTimeline {
  minutes: ClickMinute[];
  /** The link's click count this timeline was read at. */
  clicks: number;
}

export interface ClickTimelinesState {
  /** By distribution id. */
  timelines: Readonly<Record<string, ClickTimeline>>;
}

export interface ClickTimelinesActions {
  /**
   * The timeline of a link whose count is `clicks` is wanted (a card shows it): read it when it was never read or was
   * read at another count, at most once per TIMELINE_REFRESH_MS per link; a failure leaves the last one shown.
   */
  want(distributionId: string, clicks: number): void;
  reset(): void;
}

export type ClickTimelinesStore = ClickTimelinesState & ClickTimelinesActions;

export function createClickTimelinesStore(load = getClickTimeline, refreshMs = TIMELINE_REFRESH_MS) {
  const running = new Set<string>();
  const lastRead = new Map<string, number>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  /** The newest count asked for, per link. */
  const wanted = new Map<string, number>();
  /**
   * Reads of a link whose minutes did not yet add up to its count (the timeline is projected from click events a
   * moment after the counter moves): a few more reads, then it is left as it is.
   */
  const catchUps = new Map<string, number>();
  const MAX_CATCH_UPS = 5;
  const drawn = (timeline: ClickTimeline | undefined) => timeline?.minutes.reduce((n, m) => n + m.clicks, 0) ?? 0;
  let generation = 0;

  const store = create<ClickTimelinesStore>()((set, get) => {
    const read = async (id: string) => {
      const started = generation;
      running.add(id);
      lastRead.set(id, Date.now());
      const askedFor = wanted.get(id) ?? 0;
      try {
        const timeline = await load(id);
        if (started !== generation) return;
        set({ timelines: { ...get().timelines, [id]: { minutes: timeline.minutes, clicks: timeline.clicks } } });
      } catch {
        // Keep what is drawn; the next change of the count asks again.
        if (started === generation) {
          set({ timelines: { ...get().timelines, [id]: get().timelines[id] ?? { minutes: [], clicks: askedFor } } });
        }
      } finally {
        running.delete(id);
      }
      if (started !== generation) return;
      const timeline = get().timelines[id];
      // The count moved on while this read ran, or the minutes lag behind it: read again (throttled).
      if ((wanted.get(id) ?? 0) !== timeline?.clicks) schedule(id);
      else if (drawn(timeline) < timeline.clicks && (catchUps.get(id) ?? 0) < MAX_CATCH_UPS) {
        catchUps.set(id, (catchUps.get(id) ?? 0) + 1);
        schedule(id);
      }
    };

    const schedule = (id: string) => {
      if (running.has(id) || timers.has(id)) return;
      const wait = Math.max(0, (lastRead.get(id) ?? 0) + refreshMs - Date.now());
      if (wait === 0) {
        void read(id);
        return;
      }
      timers.set(
        id,
        setTimeout(() => {
          timers.delete(id);
          void read(id);
        }, wait),
      );
    };

    return {
      timelines: {},

      want(distributionId, clicks) {
        if (wanted.get(distributionId) !== clicks) catchUps.delete(distributionId);
        wanted.set(distributionId, clicks);
        const known = get().timelines[distributionId];
        if (known && known.clicks === clicks) return;
        schedule(distributionId);
      },

      reset() {
        generation++;
        for (const timer of timers.values()) clearTimeout(timer);
        timers.clear();
        running.clear();
        lastRead.clear();
        wanted.clear();
        catchUps.clear();
        set({ timelines: {} });
      },
    };
  });
  return store;
}

export const useClickTimelinesStore = createClickTimelinesStore();
onSessionUserChange(() => useClickTimelinesStore.getState().reset());
