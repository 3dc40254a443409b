import { runProcess } from './bootstrap';
import { startWorkerProcess } from './worker-process';

// Production entry point of a delivery process. Run as many as you like, on as many machines, against one Redis.
runProcess(
  process.env,
  'worker',
  'hookline-worker',
  (base) => startWorkerProcess(base),
  // The attempt in flight may take the whole deadline; then a few seconds to give the hooks back.
  (config) => config.HOOKLINE_DELIVERY_TIMEOUT_MS + 5_000,
);
