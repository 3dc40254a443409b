export { startWorker, type RunningWorker, type WorkerDeps } from './start-worker';
