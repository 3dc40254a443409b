// The layering rule of the workspace, checked by `pnpm test` (`pnpm run layers`). Test files and test support
// are included: a test-only import can tie two packages into a cycle as surely as a runtime one.
//
// Packages, bottom up (a package imports only from layers below it):
//   core · config · telemetry · delivery · testing   pure domain, settings, logging and tracing, HTTP sending,
//                                                    fixtures (config and telemetry use core; tests, testing)
//   redis                                            keys, the Lua loader, connections, BullMQ's contact points
//   scheduler                                        the delivery engine: ready set, leases, consumer, watchdog
//   store · queue · history                          records; transport; the delivery history — never one another
//   suspension                                       streaks, the suspender, control, hold cap
//   services                                         the domain services wired for the front doors, and the
//                                                    in-process producer (which reads its settings with config)
// Apps sit on top; only the composition root (apps/hookline) and the bench put apps together.
const pkg = (name) => `^packages/${name}/`;
const layer = (...names) => `^packages/(${names.join('|')})/`;

const below = {
  core: [],
  config: ['core'],
  telemetry: ['core', 'testing'],
  delivery: ['core', 'testing'],
  testing: ['core'],
  redis: ['core', 'testing'],
  scheduler: ['core', 'telemetry', 'redis', 'testing'],
  store: ['core', 'config', 'redis', 'testing'],
  history: ['core', 'redis', 'testing'],
  queue: ['core', 'redis', 'scheduler', 'testing'],
  suspension: ['core', 'redis', 'scheduler', 'store', 'queue', 'history', 'testing'],
  services: ['core', 'config', 'redis', 'scheduler', 'store', 'queue', 'history', 'suspension', 'testing'],
};

module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'Import cycles (test support included) make the layers meaningless.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'packages-do-not-import-apps',
      severity: 'error',
      comment: 'Packages hold domain code; wiring lives in apps.',
      from: { path: '^packages/' },
      to: { path: '^apps/' },
    },
    ...Object.entries(below).map(([name, allowed]) => ({
      name: `layers-${name}`,
      severity: 'error',
      comment: `packages/${name} may import only ${allowed.join(', ') || 'no other package'}`,
      from: { path: pkg(name) },
      to: {
        path: '^packages/',
        pathNot: [pkg(name), ...(allowed.length ? [layer(...allowed)] : [])],
      },
    })),
    {
      name: 'apps-do-not-import-apps',
      severity: 'error',
      comment:
        'Only the composition root (apps/hookline) and the bench assemble apps; other apps stay independent ' +
        '(their process-level tests live with the composition root).',
      from: { path: '^apps/(api|web|admin|worker|monitor)/', pathNot: '\\.test\\.ts$|/test/' },
      to: { path: '^apps/', pathNot: '^apps/$1/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(dist|node_modules)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default'],
    },
  },
};
