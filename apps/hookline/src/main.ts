import type { AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { loadDataDir, secretKeyOf, settingAccepts, suspensionRuleOf } from '@hookline/config';
import { startMonitor } from '@hookline/monitor';
import { SAMPLE_CALL_DATA } from '@hookline/core';
import { redactedUrl } from '@hookline/history';
import { erasureSettleMs } from './erasure-settle';
import {
  createRequestRedis,
  createRedis,
  redisAnswers,
  RedisServerMissing,
  startEmbeddedRedis,
  superviseEmbeddedRedis,
  type EmbeddedRedis,
} from '@hookline/redis';
import { createServices } from '@hookline/services';
import { closeHttp } from '@hookline/telemetry';
import { startWorker } from '@hookline/worker';
import { runProcess } from './bootstrap';
import { openHistoryFor } from './history-db';
import { probeSender } from './probe-sender';
import { noticesFor } from './notices-for';
import { DEMO_EMAIL, ensureDemoAccount, startDemo } from './demo';
import { buildHttpServer } from './http-server';
import { listenHttp } from './listen-http';
import { lockDataDir } from './data-dir-lock';
import { loadOrCreateLocalSecrets } from './local-secrets';
import { packageVersion, parseStartFlags, START_USAGE } from './start-flags';

const print = (line: string) => process.stdout.write(`${line}\n`);

// The request client has no offline queue (requests must fail fast), so start-up waits for it once.
async function waitUntilReady(redis: {
  status: string;
  once(event: 'ready', cb: () => void): unknown;
}): Promise<void> {
  if (redis.status === 'ready') return;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('Redis did not become ready within 10 s')), 10000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

// `pnpm start`: the API, website, admin area, a worker and the monitor in one process, for trying hookline
// out and for development. Production runs them as separate processes (see the README).
const flags = parseStartFlags(process.argv.slice(2));
if (flags.kind === 'help') {
  print(START_USAGE);
  process.exit(0);
}
if (flags.kind === 'version') {
  print(packageVersion());
  process.exit(0);
}
if (flags.kind === 'invalid') {
  process.stderr.write(`${flags.problem}\n\n${START_USAGE}\n`);
  process.exit(2);
}
const { demo, embeddedRedis: embeddedRedisAsked } = flags;
// Set by localEnv, which runs first: a bad HOOKLINE_DATA_DIR is then reported like any other setting.
let dataDir = '';
let secrets: ReturnType<typeof loadOrCreateLocalSecrets>;
let embedded: EmbeddedRedis | undefined;

async function localEnv(): Promise<NodeJS.ProcessEnv> {
  dataDir = resolve(loadDataDir(process.env));
  // One start per data directory; released when this process exits, however it exits but SIGKILL (a start
  // after that takes the lock over).
  const lock = lockDataDir(dataDir);
  process.once('exit', () => lock.release());
  secrets = loadOrCreateLocalSecrets(dataDir);
  // A variable set to '' counts as unset (README, "Settings"): it must not hide a generated secret, which
  // loadConfig would then find missing. Dropped before the merge, so the generated one applies.
  const given = Object.fromEntries(Object.entries(process.env).filter(([, value]) => value !== ''));
  const env: NodeJS.ProcessEnv = {
    HOOKLINE_API_KEY: secrets.apiKey,
    HOOKLINE_SECRET_KEY: secrets.secretKey,
    HOOKLINE_ADMIN_PASSWORD: secrets.adminPassword,
    ...given,
  };
  // The demo receiver runs on this machine; only its exact address is exempted from the network policy (added
  // unless listed already: loadConfig refuses a list with an entry twice).
  const allowed = (given.HOOKLINE_ALLOW_NETWORKS ?? '').split(',').map((entry) => entry.trim());
  if (demo && !allowed.some((entry) => entry === '127.0.0.1' || entry === '127.0.0.1/32'))
    env.HOOKLINE_ALLOW_NETWORKS = [...allowed, '127.0.0.1/32'].filter(Boolean).join(',');
  if (embeddedRedisAsked) {
    // Asked for by name: a Redis named in the settings as well leaves it unclear which one is meant.
    const named = ['REDIS_URL', 'REDIS_CLUSTER_NODES', 'REDIS_SENTINELS'].filter((name) => env[name]);
    if (named.length > 0)
      throw new Error(
        `--embedded-redis starts a Redis of its own; it cannot be used with ${named.join(' or ')}. ` +
          `Unset ${named.length > 1 ? 'them' : 'it'}, or leave out --embedded-redis`,
      );
    return startEmbedded(env, EMBEDDED_FLAG);
  }
  // Not a Redis URL: nothing to ask, and no reason to start one; loadConfig names it with the other problems.
  if (env.REDIS_URL && !settingAccepts('REDIS_URL', env.REDIS_URL)) return env;
  const wantedRedis = env.REDIS_URL ?? 'redis://127.0.0.1:6379';
  // A Redis Cluster (REDIS_CLUSTER_NODES) or a primary found by Sentinel (REDIS_SENTINELS) is never replaced by an
  // embedded server: they, not REDIS_URL's default, are where the processes connect.
  if (!env.REDIS_CLUSTER_NODES && !env.REDIS_SENTINELS && !(await redisAnswers(wantedRedis))) {
    if (env.REDIS_URL) throw new Error(`Redis does not answer at REDIS_URL=${redactedUrl(env.REDIS_URL)}`);
    return startEmbedded(env, `No Redis answered at ${wantedRedis}`);
  }
  return env;
}

const EMBEDDED_FLAG = '--embedded-redis';

async function startEmbedded(env: NodeJS.ProcessEnv, why: string): Promise<NodeJS.ProcessEnv> {
  try {
    embedded = await startEmbeddedRedis(dataDir);
  } catch (error) {
    // Asked for by the flag, the missing binary is the whole story: a Redis may well answer on 6379.
    if (error instanceof RedisServerMissing && why === EMBEDDED_FLAG)
      throw new RedisServerMissing(
        `${EMBEDDED_FLAG} needs a redis-server binary, and there is none on the PATH.`,
      );
    throw error;
  }
  print(
    `${why}: started an embedded redis-server at ${embedded.url} (AOF in ${embedded.dir}); ` +
      'it is started again if it stops.',
  );
  return { ...env, REDIS_URL: embedded.url };
}

runProcess(localEnv, 'all-in-one', 'hookline', async ({ config, logger, metrics, watch, tracing }) => {
  // Started before the settings were read (they need its address); watched from here, where there is a log.
  // Every part below reconnects by itself once it runs again. If it cannot be started, nothing here can work,
  // and a stop would only wait on Redis until its bound: the process exits 1 at once, saying why.
  const redisServer =
    embedded &&
    superviseEmbeddedRedis(embedded, {
      dataDir,
      log: logger,
      onGiveUp: (error) => {
        process.stderr.write(`${error.message}\n`);
        process.exit(1);
      },
    });
  const secretKey = secretKeyOf(config);
  // Requests fail fast when Redis is away or does not answer in time (503); background parts wait for it.
  const requestRedis = watch(createRequestRedis(config));
  const backgroundRedis = watch(createRedis(config));

  await waitUntilReady(requestRedis);
  // One database for every part of this process (PGlite is in-process: it has a single connection).
  const history = await openHistoryFor(config, dataDir);
  const historyDb = history.client;
  const probes = probeSender(config);
  const services = createServices({
    redis: requestRedis,
    settings: config,
    secretKey,
    historyDb,
    probe: probes.probe,
    log: logger,
    ...(tracing ? { tracing } : {}),
  });
  const background = createServices({
    redis: backgroundRedis,
    settings: config,
    secretKey,
    historyDb,
    log: logger,
    // The worker records outcomes with these: the failure that suspends a hook pauses it in its script.
    suspensionRule: suspensionRuleOf(config),
    ...(tracing ? { tracing } : {}),
  });
  const app = await buildHttpServer({ config, redis: requestRedis, services, logger, metrics });
  await listenHttp(app, config);
  const worker = startWorker({
    config,
    redis: backgroundRedis,
    keys: background.keys,
    store: background.store,
    metrics,
    logger,
    ...(tracing ? { tracing } : {}),
  });
  const monitor = startMonitor({
    config,
    redis: backgroundRedis,
    keys: background.keys,
    store: { ...background.store, deliveryLog: background.deliveryLog, historyOutbox: background.outbox },
    history,
    metrics,
    logger,
    ...(tracing ? { tracing } : {}),
    ...noticesFor(config, background.store.accounts, background.producer),
    erasures: { erasures: background.store.erasures, settleMs: erasureSettleMs(config) },
  });

  const account = await ensureDemoAccount(services, secrets.demoPassword);
  const demoParts = demo && account.id ? await startDemo(services, account.id, print) : undefined;

  const base = `http://localhost:${(app.server.address() as AddressInfo).port}`;
  const signIn = account.passwordKnown
    ? `sign in as ${DEMO_EMAIL} / ${secrets.demoPassword}`
    : `sign in as ${DEMO_EMAIL} (your password)`;
  print('');
  print('hookline is running');
  print(`  Website     ${base}/                ${signIn}`);
  print(`  API         ${base}/v1              Authorization: Bearer ${config.HOOKLINE_API_KEY}`);
  print(`  API docs    ${base}/openapi.json`);
  print(
    config.HOOKLINE_ADMIN_PASSWORD
      ? `  Bull Board  ${base}/admin/queues    ${config.HOOKLINE_ADMIN_USER} / ${config.HOOKLINE_ADMIN_PASSWORD}`
      : `  Bull Board  off (no HOOKLINE_ADMIN_PASSWORD)`,
  );
  print(`  Metrics     ${base}/metrics`);
  print(`  History     ${history.client.describe}`);
  if (demoParts) {
    print(
      `  Demo        a hook of ${DEMO_EMAIL} (account ${account.id}) delivers to ${demoParts.receiverUrl}; ` +
        (demoParts.held
          ? `it is suspended, so its test event is held: re-enable it at ${base}/hooks/${demoParts.hookId}`
          : 'a test event is on its way'),
    );
    // The account's id is on no other line (the API lists no accounts): a command to copy publishes to it.
    print(
      `  Publish     curl -s -X POST ${base}/v1/accounts/${account.id}/events ` +
        `-H 'Authorization: Bearer ${config.HOOKLINE_API_KEY}' -H 'Content-Type: application/json' ` +
        `-d '${JSON.stringify({ type: 'call_created', data: SAMPLE_CALL_DATA })}'`,
    );
  } else print('  Tip         pnpm start -- --demo   adds a sample receiver and a hook pointed at it');
  print(
    `  Secrets     ${dataDir}/secrets.json (generated on first start; HOOKLINE_* settings override them)`,
  );
  print('');

  return async () => {
    await closeHttp(app, config.HOOKLINE_HTTP_DRAIN_MS);
    await worker.close();
    await monitor.close();
    await demoParts?.close();
    await services.close();
    await background.close();
    await probes.close();
    await history.close();
    requestRedis.disconnect();
    backgroundRedis.disconnect();
    await redisServer?.stop();
  };
});
