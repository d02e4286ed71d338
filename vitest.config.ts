import swc from 'unplugin-swc';
import { defineConfig } from 'vitest/config';

// SWC keeps decorator metadata, which NestJS needs for injection (esbuild drops it).
const plugins = [
  swc.vite({
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: false },
      target: 'es2023',
    },
  }),
];

export default defineConfig({
  plugins,
  test: {
    projects: [
      {
        plugins,
        test: {
          name: 'unit',
          include: ['services/**/src/**/*.unit.spec.ts', 'web/src/**/*.unit.spec.ts', 'scripts/**/*.unit.spec.ts'],
          environment: 'node',
        },
      },
      {
        plugins,
        test: {
          name: 'int',
          include: ['services/**/src/**/*.int.spec.ts'],
          globalSetup: ['services/server/src/testing/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 120_000,
          // Each file gets databases of its own; two at a time suits a two-core machine.
          maxWorkers: 2,
        },
      },
      {
        plugins,
        test: {
          name: 'bench',
          include: ['bench/**/*.bench.ts'],
          globalSetup: ['services/server/src/testing/global-setup.ts'],
          testTimeout: 1_800_000,
          hookTimeout: 600_000,
          maxWorkers: 1,
        },
      },
      {
        plugins,
        test: {
          // The product on a log of tens of millions of events (`npm run bench:growth`): apart from the bench project
          // and from CI, as one run takes hours and tens of GB of disk.
          name: 'growth',
          include: ['bench/growth/**/*.growth.ts'],
          globalSetup: ['services/server/src/testing/global-setup.ts'],
          testTimeout: 86_400_000,
          hookTimeout: 600_000,
          maxWorkers: 1,
        },
      },
    ],
  },
});
