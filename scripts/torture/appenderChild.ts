/**
 * The racing appender: appends numbered lines to MEMORY.md, USER.md and today's daily note every
 * 20–200 ms with fs.appendFileSync (as an editor or a shell `>>` would), logging each line after
 * it is written, until SIGTERM.   usage: appenderChild.ts WORKSPACE LOGFILE SEED
 */
import fs from 'node:fs';
import path from 'node:path';
import { Rng } from '../bench/prng.js';

const [root, logFile, seed] = process.argv.slice(2) as [string, string, string];
const rng = new Rng(Number(seed));
const today = new Date().toISOString().slice(0, 10);
const targets = ['MEMORY.md', 'USER.md', `memory/${today}.md`];
let stopping = false;
let n = 0;
process.on('SIGTERM', () => (stopping = true));

function tick(): void {
  if (stopping) process.exit(0);
  const rel = targets[rng.int(targets.length)]!;
  const line = `- appended line ${++n} by the torture appender`;
  fs.appendFileSync(path.join(root, rel), `${line}\n`);
  fs.appendFileSync(logFile, `${rel}\t${line}\n`);
  setTimeout(tick, rng.range(20, 200));
}
tick();
