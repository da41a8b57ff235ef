/**
 * Reverie's torture suite: real `reverie` processes, real kill -9, hostile inputs, racing writers.
 *
 *   npm run torture -- [--quick] [--seed N] [--only family[,family…]]
 *
 * Prints one table (family | trials | failures | figures | elapsed) and "N failures"; exits 1 on
 * any loss, torn file, crash or hang. Everything lives under one temp root, always removed.
 */
import { parseArgs } from 'node:util';
import { TortureContext, type Family } from './harness.js';
import { printTable, type Row } from './table.js';
import { families } from './families/index.js';

const { values } = parseArgs({ options: { quick: { type: 'boolean', default: false }, seed: { type: 'string', default: '23' }, only: { type: 'string' } } });
const seed = Number(values.seed);
if (!Number.isInteger(seed)) throw new Error(`--seed must be an integer, got ${values.seed}`);
const wanted = values.only?.split(',').map((s) => s.trim());
const unknown = wanted?.filter((w) => !families.some((f) => f.name === w)) ?? [];
if (unknown.length) {
  console.error(`Unknown family ${unknown.join(', ')}; families: ${families.map((f) => f.name).join(', ')}`);
  process.exit(1);
}
const chosen: Family[] = families.filter((f) => !wanted || wanted.includes(f.name));

const ctx = new TortureContext(seed, values.quick);
const cleanup = () => ctx.cleanup();
for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    cleanup();
    process.exit(code);
  });
}
const rows: Row[] = [];
const started = Date.now();
try {
  console.error(`torture: ${values.quick ? 'quick' : 'full'} run, seed ${seed}, temp root ${ctx.root}`);
  for (const family of chosen) {
    const t0 = Date.now();
    console.error(`torture: ${family.name}…`);
    try {
      rows.push({ family: family.name, ...(await family.run(ctx)), seconds: (Date.now() - t0) / 1000 });
    } catch (error) {
      rows.push({ family: family.name, trials: 0, failures: [`the harness itself failed: ${(error as Error).stack ?? String(error)}`], figures: {}, seconds: (Date.now() - t0) / 1000 });
    }
    // Each family's row as soon as it is known, so a long run that is stopped still reports.
    const row = rows.at(-1)!;
    const figures = Object.entries(row.figures).map(([k, v]) => `${k} ${v}`).join(', ');
    console.error(`torture: ${family.name} done in ${row.seconds.toFixed(1)} s: ${row.trials} trials, ${row.failures.length} failures${figures ? `, ${figures}` : ''}`);
    for (const failure of row.failures.slice(0, 3)) console.error(`torture:   ${failure}`);
  }
} finally {
  cleanup();
}
const failures = printTable(rows);
console.log(`seed ${seed}, ${values.quick ? 'quick' : 'full'} run, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures > 0 ? 1 : 0);
