import { synthesize } from './synth';
const s = synthesize();
const r = s.template.toJSON().Resources;
const by: Record<string, number> = {};
for (const v of Object.values<any>(r)) by[v.Type] = (by[v.Type] ?? 0) + 1;
console.log(Object.keys(r).length, JSON.stringify(JSON.stringify(s.template.toJSON()).length));
console.log(Object.entries(by).sort((a, b) => b[1] - a[1]));
console.log(s.findings.length);
s.dispose();
