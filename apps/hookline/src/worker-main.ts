import { runProcess } from './bootstrap';
import { answerCommandLine } from './entry-usage';
import { startWorkerProcess } from './worker-process';

// Production entry point of a delivery process. Run as many as you like, on as many machines, against one Redis.
// Its stop bound: STOP_BOUND_MS.worker.
answerCommandLine('worker-main.js');
runProcess(process.env, 'worker', 'hookline-worker', (base) => startWorkerProcess(base));
