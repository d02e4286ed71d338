import type { LinkActivityDay } from '@seatlink/contracts';

/** One day's pair of bars: opens and claims, as heights within the chart. */
export interface DayBars {
  day: string;
  x: number;
  opens: { y: number; height: number; value: number };
  claims: { y: number; height: number; value: number };
}

/**
 * The bars of the opens→claims chart: per day, an opens bar and a claims bar side by side, scaled to the busiest
 * day (a day of none draws no bar). Pure: the page draws what this says.
 */
export function activityBars(days: readonly LinkActivityDay[], width: number, height: number): DayBars[] {
  const highest = Math.max(1, ...days.map((d) => Math.max(d.opens, d.claims)));
  const slot = days.length > 0 ? width / days.length : width;
  const bar = (value: number) => {
    const h = (value / highest) * height;
    return { y: height - h, height: h, value };
  };
  return days.map((d, i) => ({ day: d.day, x: i * slot, opens: bar(d.opens), claims: bar(d.claims) }));
}
