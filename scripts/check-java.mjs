import { spawnSync } from 'node:child_process';

// The test suite runs DynamoDB Local; without Java it can only fail, so say so in one sentence.
const probe = spawnSync('java', ['-version'], { encoding: 'utf8' });
if (probe.error || probe.status !== 0) {
  console.error(
    'DynamoDB Local needs Java 17 or newer, and no `java` was found on the PATH: install a JDK or JRE (for example `apt-get install openjdk-17-jre-headless`) and try again.',
  );
  process.exit(1);
}
