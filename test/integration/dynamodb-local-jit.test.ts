import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DYNAMO_JVM_OPTIONS,
  DYNAMO_LOCAL_ARGUMENTS,
  type DynamoJit,
  startDynamoLocal,
} from '#infra/local/dynamodb-local';

/** The JDK_JAVA_OPTIONS the started JVM was given (read from its environment in /proc). */
function jvmOptionsOf(pid: number | undefined): string | undefined {
  const environ = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
  return environ.find((v) => v.startsWith('JDK_JAVA_OPTIONS='))?.slice('JDK_JAVA_OPTIONS='.length);
}

describe('DynamoDB Local JVM options', () => {
  it.each<[DynamoJit | undefined, string]>([
    [undefined, DYNAMO_JVM_OPTIONS.short],
    ['long', DYNAMO_JVM_OPTIONS.long],
  ])('jit %s starts the JVM with its options only for that spawn', async (jit, expected) => {
    const before = process.env.JDK_JAVA_OPTIONS;
    const dynamo = await startDynamoLocal({ dataDir: null, jit });
    try {
      expect(jvmOptionsOf(dynamo.pid)).toBe(before ? `${expected} ${before}` : expected);
      expect(process.env.JDK_JAVA_OPTIONS).toBe(before);
    } finally {
      await dynamo.stop();
    }
  });

  it('starts DynamoDB Local with its telemetry off, in memory and on its port, from the package jar', async () => {
    expect(DYNAMO_LOCAL_ARGUMENTS).toEqual(['-disableTelemetry']);
    const dynamo = await startDynamoLocal({ dataDir: null });
    try {
      const args = readFileSync(`/proc/${dynamo.pid}/cmdline`, 'utf8').split('\0');
      expect(args).toContain('-disableTelemetry');
      expect(args).toContain('-inMemory');
      expect(args.slice(args.indexOf('-port'), args.indexOf('-port') + 2)).toEqual([
        '-port',
        String(dynamo.port),
      ]);
      expect(args.find((a) => a.endsWith('DynamoDBLocal.jar'))).toBeDefined();
    } finally {
      await dynamo.stop();
    }
  });

  it('keeps the client compiler only for short runs, and full tiered compilation for long ones', () => {
    expect(DYNAMO_JVM_OPTIONS.short).toContain('-XX:TieredStopAtLevel=1');
    expect(DYNAMO_JVM_OPTIONS.long).not.toContain('TieredStopAtLevel');
  });

  it('gives long runs a heap whose young generation outlasts a burst, and short runs the default', () => {
    expect(DYNAMO_JVM_OPTIONS.long.split(' ')).toEqual(expect.arrayContaining(['-Xms1g', '-Xmn600m']));
    expect(DYNAMO_JVM_OPTIONS.short).not.toMatch(/-Xm[sn]/);
  });
});
