import { secretKeyOf } from '@hookline/config';
import { batchWritesPerTurn, createRequestRedis } from '@hookline/redis';
import { createServices } from '@hookline/services';
import { closeHttp } from '@hookline/telemetry';
import { runProcess } from './bootstrap';
import { answerCommandLine } from './entry-usage';
import { openHistoryFor } from './history-db';
import { probeSender } from './probe-sender';
import { buildHttpServer } from './http-server';
import { listenHttp } from './listen-http';

// Production entry point of the HTTP tier: API, website and admin area (Bull Board) on PORT. Run several
// behind a load balancer; workers and the monitor run as their own processes.
answerCommandLine('http-main.js');
runProcess(process.env, 'api', 'hookline-http', async ({ config, logger, metrics, watch, tracing }) => {
  // Concurrent requests' commands go out together, a write per turn (see batchWritesPerTurn).
  const redis = watch(batchWritesPerTurn(createRequestRedis(config)));
  const history = await openHistoryFor(config);
  const probes = probeSender(config);
  const services = createServices({
    probe: probes.probe,
    redis,
    settings: config,
    secretKey: secretKeyOf(config),
    historyDb: history.client,
    log: logger,
    ...(tracing ? { tracing } : {}),
  });
  const app = await buildHttpServer({ config, redis, services, logger, metrics });
  await listenHttp(app, config);
  return async () => {
    await closeHttp(app, config.HOOKLINE_HTTP_DRAIN_MS);
    await services.close();
    await probes.close();
    await history.close();
    redis.disconnect();
  };
});
