// Preloaded (`node --import`) into a process whose wall clock must be wrong: its Date runs as the real one does,
// shifted by SKEWED_CLOCK_MS (negative: behind). Timers and the monotonic clock are left as they are.
import FakeTimers from '@sinonjs/fake-timers';

FakeTimers.withGlobal(globalThis).install({
  now: Date.now() + Number(process.env.SKEWED_CLOCK_MS ?? 0),
  toFake: ['Date'],
  shouldAdvanceTime: true,
  advanceTimeDelta: 5,
});
