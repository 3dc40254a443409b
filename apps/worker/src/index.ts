export { startWorker, USER_AGENT, type RunningWorker, type WorkerDeps } from './start-worker';
export { runWorkerProcess } from './worker-process';
