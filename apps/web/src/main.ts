import { runWebProcess } from './web-process';

// The website as its own process (`node apps/web/dist/main.js`); `pnpm start` serves it with the API instead.
runWebProcess(process.env).catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
