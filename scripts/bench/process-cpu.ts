import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * CPU time (user + system, ms) a process has used so far, read from /proc (Linux); null where
 * there is no /proc or the process is gone. Clock ticks are 100 per second on Linux (USER_HZ).
 */
export function processCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    // Fields after the command name (which may hold spaces) start at field 3: utime and stime are 14 and 15.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return null;
  }
}

/** This process's own CPU time in ms. */
export const ownCpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};

/**
 * Where the CPU of a measured window went: this process (the local runtime, which stands in for
 * every Lambda) and DynamoDB Local's JVM, per unit of work, beside the machine's cores. A phase
 * whose target needs more cores than the machine has is bound by the machine, not by the code.
 */
export interface CpuShare {
  cores: number;
  /** ms of CPU per unit (request, event) in the runtime process. */
  runtimeMsPerUnit: number;
  /** ms of CPU per unit in DynamoDB Local (null: not measurable here). */
  dynamoMsPerUnit: number | null;
  /** ms of CPU per unit in any other process measured (the load client), if any. */
  otherMsPerUnit: number | null;
  /** Cores the measured processes would need at the target rate. */
  coresAtTarget: number | null;
}

export function cpuMeter(dynamoPid: number | undefined) {
  const own0 = ownCpuMs();
  const dyn0 = processCpuMs(dynamoPid);
  return {
    stop(units: number, targetPerSecond: number, otherMs: number | null = null): CpuShare {
      const own = ownCpuMs() - own0;
      const dyn1 = processCpuMs(dynamoPid);
      const dyn = dyn0 !== null && dyn1 !== null ? dyn1 - dyn0 : null;
      const per = (ms: number | null) =>
        ms === null ? null : Math.round((ms / Math.max(1, units)) * 100) / 100;
      const total = own + (dyn ?? 0) + (otherMs ?? 0);
      return {
        cores: availableParallelism(),
        runtimeMsPerUnit: per(own) as number,
        dynamoMsPerUnit: per(dyn),
        otherMsPerUnit: per(otherMs),
        coresAtTarget:
          dyn === null ? null : Math.round(((total / Math.max(1, units)) * targetPerSecond) / 10) / 100,
      };
    },
  };
}

export function formatCpuShare(share: CpuShare, unit: string, target: number): string {
  const parts = [`runtime ${share.runtimeMsPerUnit} ms`];
  if (share.dynamoMsPerUnit !== null) parts.push(`DynamoDB Local ${share.dynamoMsPerUnit} ms`);
  if (share.otherMsPerUnit !== null) parts.push(`load client ${share.otherMsPerUnit} ms`);
  const need =
    share.coresAtTarget === null
      ? ''
      : `; at ${target} ${unit}s/s these processes need ${share.coresAtTarget} cores of the machine's ${share.cores}${
          share.coresAtTarget > share.cores ? ' (the target is bound by this machine)' : ''
        }`;
  return `  CPU per ${unit}: ${parts.join(', ')}${need}`;
}

/**
 * CPU time (ms) a JVM's JIT compiler threads (C1 and C2) have used so far, read from /proc/<pid>/task;
 * null where that cannot be read.
 */
export function jitCpuMs(pid: number | undefined): number | null {
  if (!pid) return null;
  try {
    let ticks = 0;
    for (const task of readdirSync(`/proc/${pid}/task`)) {
      try {
        const name = readFileSync(`/proc/${pid}/task/${task}/comm`, 'utf8');
        if (!/^C[12] CompilerThre/.test(name)) continue;
        const fields = readFileSync(`/proc/${pid}/task/${task}/stat`, 'utf8').split(') ')[1].split(' ');
        ticks += Number(fields[11]) + Number(fields[12]);
      } catch {
        // The thread ended between the listing and the read.
      }
    }
    return ticks * 10;
  } catch {
    return null;
  }
}

/** A JIT that compiles for less than this share of one core is taken as settled. */
export const JIT_SETTLED_SHARE = 0.1;

export interface JitWarmUp {
  /** Warm-up rounds run. */
  rounds: number;
  /** Whether the last round found the JIT settled (false: the cap was reached, or /proc cannot tell). */
  settled: boolean;
  /** The compiler threads' share of one core during the last round (null: not measurable). */
  lastShare: number | null;
}

/**
 * Runs warm-up rounds until DynamoDB Local's JIT compiler used less than JIT_SETTLED_SHARE of a core
 * during a round, at most `maxRounds`. Its JVM compiles the hot paths with C2 for a minute or more
 * of load, CPU that a DynamoDB Local up for hours (or DynamoDB itself) no longer spends: measured
 * while it lasts, the webhook pipeline spent a third of DynamoDB Local's CPU in the compiler.
 * Where /proc cannot tell, all `maxRounds` run.
 */
export async function warmUntilJitSettles(
  pid: number | undefined,
  round: () => Promise<void>,
  maxRounds: number,
): Promise<JitWarmUp> {
  let lastShare: number | null = null;
  for (let rounds = 1; rounds <= maxRounds; rounds++) {
    const jit0 = jitCpuMs(pid);
    const started = performance.now();
    await round();
    const jit1 = jitCpuMs(pid);
    const wallMs = performance.now() - started;
    lastShare = jit0 === null || jit1 === null ? null : Math.round(((jit1 - jit0) / wallMs) * 100) / 100;
    if (lastShare !== null && lastShare < JIT_SETTLED_SHARE) return { rounds, settled: true, lastShare };
  }
  return { rounds: maxRounds, settled: false, lastShare };
}

export function formatJitWarmUp(w: JitWarmUp): string {
  const share = w.lastShare === null ? 'not measurable here' : `${Math.round(w.lastShare * 100)}% of a core`;
  return w.settled
    ? `DynamoDB Local's JIT settled: its compiler used ${share} in the last round`
    : `DynamoDB Local's JIT had not settled after ${w.rounds} rounds: its compiler used ${share} in the last`;
}
