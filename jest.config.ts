import { availableParallelism } from 'node:os';
import type { Config } from 'jest';

// Tests run against the TypeScript sources (no build needed); `tsc -b` type-checks separately,
// so ts-jest only transpiles (isolatedModules) — which still emits decorator metadata.
const config: Config = {
  testEnvironment: 'node',
  roots: ['<rootDir>/packages', '<rootDir>/examples', '<rootDir>/bench'],
  testMatch: ['**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  modulePathIgnorePatterns: ['<rootDir>/packages/.*/dist/', '<rootDir>/examples/.*/dist/'],
  transform: {
    '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }],
    // arktype ships only ES modules, which jest's CommonJS sandbox cannot load: they are compiled to CommonJS.
    '/node_modules/(arktype|arkregex|@ark)/.+\\.js$': ['ts-jest', { tsconfig: { allowJs: true, module: 'commonjs', target: 'es2022' }, isolatedModules: true }],
  },
  transformIgnorePatterns: ['/node_modules/(?!(arktype|arkregex|@ark)/)'],
  moduleNameMapper: {
    '^@toolsmith/example-([a-z-]+)$': '<rootDir>/examples/$1/src/index.ts',
    '^@toolsmith/([a-z-]+)/(testing|adapter-kit|internal)$': '<rootDir>/packages/$1/src/$2/index.ts',
    '^@toolsmith/([a-z-]+)$': '<rootDir>/packages/$1/src/index.ts',
    // PGlite needs import(), which jest's sandbox lacks: this loads the real package outside it.
    '^@electric-sql/pglite$': '<rootDir>/packages/postgres/src/__fixtures__/pglite-outside-jest.cjs',
  },
  setupFiles: ['reflect-metadata'],
  reporters: ['default', '<rootDir>/.ci/jest-summary-reporter.js'],
  // Generous, because CI runs on 2 loaded cores and several tests start real child processes that compile
  // TypeScript from source (ts-node) or start PostgreSQL; tests never wait on time, so this only bounds a hang.
  testTimeout: 60000,
  // At least two workers (jest's default, one fewer than the cores, is a single worker on the 2-core CI
  // machine). Much of the suite waits on child processes, PostgreSQL, npm and a browser, so a second
  // worker overlaps those waits; tests never depend on timing, so sharing the cores changes no result.
  maxWorkers: Math.max(2, availableParallelism() - 1),
};

export default config;
