import { runWorkerProcess } from './worker-process';

// Production entry point of a delivery process. Run as many as you like, on as many machines, against one Redis.
runWorkerProcess(process.env).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
