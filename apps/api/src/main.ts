import { runApiProcess } from './api-process';

// Production entry point of the HTTP API. Run several behind a load balancer against one Redis.
runApiProcess(process.env).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
