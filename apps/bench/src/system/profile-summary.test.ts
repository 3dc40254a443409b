import { summarizeProfiles, type CpuProfile } from './profile-summary';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

describe('CPU profile summary', () => {
  it('ranks self time by function and by module, leaving idle time out', () => {
    const profile: CpuProfile = {
      nodes: [
        { id: 1, callFrame: frame('(idle)') },
        {
          id: 2,
          callFrame: frame(
            'parse',
            'file:///r/node_modules/.pnpm/ioredis@5/node_modules/ioredis/built/a.js',
            9,
          ),
        },
        { id: 3, callFrame: frame('deliverJob', 'file:///r/apps/worker/src/deliver-job.ts', 24) },
        { id: 4, callFrame: frame('(garbage collector)') },
      ],
      samples: [1, 2, 2, 3, 4],
      timeDeltas: [5000, 3000, 3000, 2000, 2000],
    };
    const summary = summarizeProfiles([profile]);
    expect(summary.busyMs).toBe(10);
    expect(summary.functions[0]).toEqual({ name: 'parse ioredis/built/a.js:10', selfMs: 6, percent: 60 });
    expect(summary.modules.map((m) => m.name)).toEqual(['ioredis', 'hookline/worker', '(garbage collector)']);
  });
});
