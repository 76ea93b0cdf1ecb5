import { readFileSync } from 'node:fs';
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
