// One jest run over every package and app; workspace imports resolve to sources, so tests need no build.
const swc = [
  '@swc/jest',
  { jsc: { target: 'es2022', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
const project = (dir) => ({
  displayName: dir,
  rootDir: require('node:path').join(__dirname, dir),
  testMatch: ['<rootDir>/src/**/*.test.ts', '<rootDir>/test/**/*.test.ts'],
  // cookie@2 and content-disposition ship ESM only, and @fastify/cookie and light-my-request import() them;
  // PGlite's CommonJS build import()s Node's modules. jest runs CommonJS without a dynamic-import hook, so
  // those five are transformed too (import() becomes require()); so is the OTLP exporters' base, which import()s
  // node:http when it first sends.
  transform: { '^.+\\.(ts|js|cjs)$': swc },
  transformIgnorePatterns: [
    '/node_modules/(?!(\\.pnpm|cookie|content-disposition|@fastify/cookie|light-my-request|@electric-sql/pglite|@opentelemetry/otlp-exporter-base)[/@])',
  ],
  moduleNameMapper: {
    '^@hookline/([a-z-]+)$': [
      '<rootDir>/../../packages/$1/src/index.ts',
      '<rootDir>/../../apps/$1/src/index.ts',
    ],
  },
  testEnvironment: 'node',
});
const fs = require('node:fs');
const dirs = ['packages', 'apps'].flatMap((top) =>
  fs.existsSync(top)
    ? fs
        .readdirSync(top)
        .map((d) => `${top}/${d}`)
        .filter((d) => fs.existsSync(`${d}/package.json`))
    : [],
);
// forceExit: a failing test can leave a server or a connection open, and CI must still end with its verdict
// rather than wait for its time limit. Passing runs close everything themselves (afterEach in each fixture).
module.exports = { projects: dirs.map(project), testTimeout: 30000, forceExit: true };
