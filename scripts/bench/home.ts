import { startRuntime } from '../../infra/local/runtime';
import { measureHomeSummary, printHomeSummary } from './home-summary';

/** `npm run bench:home [count]`: the home's reads at a big seller alone (100,000 transactions by default). */
const count = Number(process.argv[2] ?? 100_000);
const runtime = await startRuntime({ port: 0, dataDir: null, logLevel: 'error' });
try {
  printHomeSummary(await measureHomeSummary(runtime, count));
} finally {
  await runtime.stop();
}
