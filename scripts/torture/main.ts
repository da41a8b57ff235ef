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
process.on('SIGINT', () => {
  cleanup();
  process.exit(130);
});
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
    console.error(`torture: ${family.name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
} finally {
  cleanup();
}
const failures = printTable(rows);
console.log(`seed ${seed}, ${values.quick ? 'quick' : 'full'} run, ${((Date.now() - started) / 1000).toFixed(1)} s`);
process.exit(failures > 0 ? 1 : 0);
