import { runProcess } from './bootstrap';
import { startWorkerProcess } from './worker-process';

// Production entry point of a delivery process. Run as many as you like, on as many machines, against one Redis.
// Its stop bound: STOP_BOUND_MS.worker.
runProcess(process.env, 'worker', 'hookline-worker', (base) => startWorkerProcess(base));
