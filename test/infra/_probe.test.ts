import { it } from 'vitest';
import { synthesize } from './synth';
it('probe', () => {
  const s = synthesize();
  for (const t of s.templates) console.log(t.file, Object.keys(JSON.parse(t.body).Resources).length, t.body.length);
  console.log(s.findings);
  console.log(JSON.stringify(s.template.toJSON().Resources[s.logicalId(s.stack.edge.distribution)], null, 1).slice(0, 3000));
  s.dispose();
});
