import { hashKey, type QueryClient, type QueryFilters, type QueryKey } from '@tanstack/react-query';

/** Pushes that arrive together (a sync touches many tickets, an account and its counts) cause one read. */
export const LIVE_REFRESH_MS = 300;

export interface LiveRefresh {
  /**
   * What the queries under `queryKey` hold changed on the server (a live push said so, or this page changed it): they
   * are marked stale, and those on screen are read again — `delayMs` after the first of a burst of calls, or at once
   * with `now`. One read at a time per key: a call while a read runs (it may have started before the change) reads
   * once more after it.
   */
  refresh(queryKey: QueryKey, options?: { now?: boolean }): void;
  /** Resolves once no read asked for is waiting or running (tests). */
  settled(): Promise<void>;
  dispose(): void;
}

export function createLiveRefresh(client: QueryClient, delayMs = LIVE_REFRESH_MS): LiveRefresh {
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const running = new Map<string, Promise<void>>();
  const again = new Set<string>();

  const read = (hash: string, queryKey: QueryKey) => {
    if (running.has(hash)) {
      again.add(hash);
      return;
    }
    const loop = (async () => {
      let reads: QueryFilters[] = [{ queryKey }];
      while (reads.length > 0) {
        again.delete(hash);
        // A read already under way may have been answered before the change: it is let end, then read once more. Only
        // it: the other queries the key covers were just read (after a connection, the key is every query; one list
        // still coming in read them all a second time). Only one a page shows: invalidation waits for those alone, and
        // one no page shows yet (a route loader's read ahead of its page) is marked stale, so the page reads it again;
        // counted here, it would be passed over at once, again and again, and the loop would never let the page run.
        const busy = reads.flatMap((filters) =>
          client
            .getQueryCache()
            .findAll({ ...filters, type: 'active', fetchStatus: 'fetching' })
            .map((query): QueryFilters => ({ queryKey: query.queryKey, exact: true })),
        );
        await Promise.all(reads.map((filters) => client.invalidateQueries(filters, { cancelRefetch: false })));
        // A call while this ran reads the whole key again.
        reads = again.has(hash) ? [{ queryKey }] : busy;
      }
    })().finally(() => running.delete(hash));
    running.set(hash, loop);
  };

  return {
    refresh(queryKey, { now = false } = {}) {
      const hash = hashKey(queryKey);
      if (now) {
        clearTimeout(timers.get(hash));
        timers.delete(hash);
        read(hash, queryKey);
        return;
      }
      // The first call of a burst sets the time; later ones are covered by the read it starts (never postponed, so
      // a steady stream of pushes still reads every `delayMs`).
      if (timers.has(hash)) return;
      timers.set(
        hash,
        setTimeout(() => {
          timers.delete(hash);
          read(hash, queryKey);
        }, delayMs),
      );
    },

    async settled() {
      while (timers.size > 0 || running.size > 0) {
        if (running.size > 0) await Promise.all(running.values());
        else await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    },

    dispose() {
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}

const refreshers = new WeakMap<QueryClient, LiveRefresh>();

/** The one LiveRefresh of a QueryClient (the live pushes and the pages' own changes share it). */
export function liveRefresh(client: QueryClient): LiveRefresh {
  let refresh = refreshers.get(client);
  if (!refresh) {
    refresh = createLiveRefresh(client);
    refreshers.set(client, refresh);
  }
  return refresh;
}
