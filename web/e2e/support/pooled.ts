/** Runs `work` over `items` with at most `width` at a time (a big account's passes made through the simulator). */
export async function pooled<T>(items: readonly T[], width: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
