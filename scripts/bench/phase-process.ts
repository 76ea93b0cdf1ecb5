import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { LongPhase } from './filter';

/**
 * Runs one heavy phase of the bench in a fresh node process and answers what it measured. Run one
 * after the other in the bench's own process, the later phases measured what the earlier ones left
 * behind (a heap of seeded rows, timers, sockets): the webhook pipeline made 16.2 events/s there
 * against 108.7 alone, and the load test 754 errors against 469. A process of its own per phase
 * makes the full run's figures the same as the phase's alone.
 */
export function inFreshProcess<T>(phase: LongPhase): Promise<T> {
  const child = fork(fileURLToPath(new URL('./phase-main.ts', import.meta.url)), [phase], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  return new Promise((ok, fail) => {
    let answered = false;
    child.once('message', (message: { result?: T; error?: string }) => {
      answered = true;
      if (message.error !== undefined) fail(new Error(`bench phase "${phase}" failed: ${message.error}`));
      else ok(message.result as T);
    });
    child.once('error', fail);
    child.once('exit', (code) => {
      if (!answered) fail(new Error(`bench phase "${phase}" exited with ${code} before answering`));
    });
  });
}
