import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

// --- Web import boundaries (docs/architecture.md "The web app", in the manner of bulletproof-react) ---------------
// features/<f>/ imports components/, lib/ and @seatlink/contracts, never another feature and never app/; app/ (router,
// layouts, guards) may import features; components/ and lib/ are shared and import neither. Only lib/ touches the
// socket: everything else listens through useServerEvent() of lib/realtime.ts. Built from ESLint's own
// no-restricted-imports: a relative import from a file `depth` folders below features/<f>/ leaves its feature exactly
// when it climbs depth + 1 levels and goes on into a sibling folder, so each depth gets a block of its own.
const socketImports = {
  paths: [
    { name: 'socket.io-client', message: 'Only lib/ talks to socket.io; listen with useServerEvent() (lib/realtime).' },
  ],
  pattern: {
    regex: '(^|/)lib/socket$',
    message: 'Listen with useServerEvent() and connect with useSocketConnection() from lib/realtime.',
  },
};
const MAX_FEATURE_DEPTH = 5;
const featureBoundaries = Array.from({ length: MAX_FEATURE_DEPTH + 1 }, (_, depth) => {
  const up = '\\.\\./'.repeat(depth + 1);
  return {
    files: [`web/src/features/*/${'*/'.repeat(depth)}*.{ts,tsx}`],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: socketImports.paths,
          patterns: [
            {
              regex: `^${up}(?!\\.\\./)`,
              message: 'A feature imports components/, lib/ and @seatlink/contracts, never another feature.',
            },
            { regex: `^${up}\\.\\./(app|main)(/|$)`, message: 'Features do not import app/ (app/ imports features).' },
            socketImports.pattern,
          ],
        },
      ],
    },
  };
});
const sharedNotFeatures = {
  regex: '^(\\.\\./)+(features|app)(/|$)',
  message: 'components/ and lib/ are shared by every feature: they import no feature and not app/.',
};

const serverFiles = ['services/server/src/**/*.ts'];
const streamedAnswers =
  'Answer with a stream through sendStreamed() (infra/http/streamed-answer): an error must end its answer, not the process.';
const streamPaths = ['node:stream', 'stream', 'node:stream/promises', 'stream/promises'].map((name) => ({
  name,
  message: streamedAnswers,
}));

// --- Server module walls (the same device as the web's feature boundaries) ------------------------------------------
// A module of services/server/src/modules uses another only through that module's public face, its index.ts; infra/
// and shared/ serve every module and import none. A relative import from a file `depth` folders below modules/<m>/
// leaves its module exactly when it climbs depth + 1 levels and goes on into a sibling folder. Tests may reach in.
const MAX_MODULE_DEPTH = 4;
const moduleWalls = Array.from({ length: MAX_MODULE_DEPTH + 1 }, (_, depth) => ({
  files: [`services/server/src/modules/*/${'*/'.repeat(depth)}*.ts`],
  ignores: ['**/*.spec.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        paths: streamPaths,
        patterns: [
          {
            regex: `^${'\\.\\./'.repeat(depth + 1)}(?!\\.\\./)(?![^/]+/index\\.js$)`,
            message: "Another module is used through its public face only: import from '../<module>/index.js'.",
          },
        ],
      },
    ],
  },
}));
const infraNotModules = {
  regex: '(^|/)modules(/|$)',
  message: 'infra/ and shared/ serve every module and import none: give the module a port to implement instead.',
};

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'data/**',
      'test-results/**',
      'playwright-report/**',
      '.scratch/**',
      'services/client/src/api.ts',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
    },
  },
  // The server is linted with type information: floating promises, unsafe `any`, unbound methods, and a `switch` over
  // an event union that forgets a case (a projection that silently ignores a new event) are errors.
  ...tseslint.configs.recommendedTypeChecked.map((config) => ({ ...config, files: serverFiles })),
  {
    files: serverFiles,
    languageOptions: {
      parserOptions: { project: ['services/server/tsconfig.test.json'], tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // NestJS injects constructor parameters by their runtime class: those imports must stay value imports.
      '@typescript-eslint/consistent-type-imports': 'off',
      // An interface's async method need not await (an in-memory adapter answers at once).
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/switch-exhaustiveness-check': [
        'error',
        { considerDefaultExhaustiveForUnions: true, requireDefaultForNonUnion: false },
      ],
    },
  },
  {
    files: ['web/src/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
  // The classic script index.html runs before the first paint: a browser script, not a module.
  {
    files: ['web/src/theme-boot.js'],
    languageOptions: { sourceType: 'script', globals: { ...globals.browser } },
  },
  ...featureBoundaries,
  {
    files: ['web/src/app/**/*.{ts,tsx}', 'web/src/main.tsx'],
    rules: {
      'no-restricted-imports': ['error', { paths: socketImports.paths, patterns: [socketImports.pattern] }],
    },
  },
  {
    files: ['web/src/components/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: socketImports.paths, patterns: [sharedNotFeatures, socketImports.pattern] },
      ],
    },
  },
  {
    files: ['web/src/lib/**/*.{ts,tsx}'],
    rules: { 'no-restricted-imports': ['error', { patterns: [sharedNotFeatures] }] },
  },
  // A feature answers with a stream only through sendStreamed() (infra/http/streamed-answer.ts): streams joined with
  // .pipe() leave an error without a listener, and one unheard 'error' ends the whole process.
  {
    files: ['services/server/src/modules/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { paths: streamPaths }],
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.property.name='pipe']", message: streamedAnswers },
      ],
    },
  },
  ...moduleWalls,
  {
    files: ['services/server/src/infra/**/*.ts', 'services/server/src/shared/**/*.ts'],
    ignores: ['**/*.spec.ts'],
    rules: { 'no-restricted-imports': ['error', { patterns: [infraNotModules] }] },
  },
);
