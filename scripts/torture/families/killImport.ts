/**
 * kill -9 of `reverie import apply` at random points: sources untouched, every imported file whole
 * (equal to its source), no staging folder left behind once the next import finished.
 */
import fs from 'node:fs';
import path from 'node:path';
import { firstLine, runCli, type Family } from '../harness.js';
import { checkAfterKill } from '../killCheck.js';
import { snapshotMarkdown } from '../verify.js';
import { generatedNotes, sentence } from '../corpus.js';

function listFiles(dir: string, base = dir): string[] {
  let out: string[] = [];
  for (const entry of fs.existsSync(dir) ? fs.readdirSync(dir, { withFileTypes: true }) : []) {
    const abs = path.join(dir, entry.name);
    if (entry.isDirectory()) out = out.concat(listFiles(abs, base));
    else out.push(path.relative(base, abs));
  }
  return out;
}

export const killImport: Family = {
  name: 'kill import apply',
  async run(ctx) {
    const failures: string[] = [];
    let kills = 0;
    let trials = 0;
    for (let i = 0; !ctx.enoughKills(i, kills, 1); i++, trials++) {
      const ws = ctx.workspace(generatedNotes(ctx.rng, 5));
      const home = path.join(ws.dataDir, 'claude-home');
      const sources = new Map<string, Buffer>();
      for (let k = 0; k < ctx.trials(400, 1500); k++) {
        const rel = path.join('projects', `-src-p${k % 3}`, 'memory', `note-${k}.md`);
        const bytes = Buffer.from(`# Note ${k}\n\n${Array.from({ length: ctx.rng.range(1, 60) }, () => `- ${sentence(ctx.rng)}`).join('\n')}\n`);
        fs.mkdirSync(path.dirname(path.join(home, rel)), { recursive: true });
        fs.writeFileSync(path.join(home, rel), bytes);
        sources.set(rel, bytes);
      }
      const before = snapshotMarkdown(ws.root);
      const args = ['import', 'apply', '--source', 'claude-code', '--from', home, ...ws.at];
      const run = await runCli(args, ws.env, 120_000, ctx.rng.range(1200, 4500));
      const label = `kill ${i + 1}`;
      if (run.signal === 'SIGKILL') kills++;
      for (const [rel, bytes] of sources) if (!fs.readFileSync(path.join(home, rel)).equals(bytes)) failures.push(`${label}: source ${rel} changed`);
      const bySourceName = new Map([...sources].map(([rel, bytes]) => [path.basename(rel), bytes]));
      const importsDir = path.join(ws.root, 'memory', 'imports');
      for (const rel of listFiles(importsDir)) {
        if (rel.split(path.sep).some((part) => part.startsWith('.staging-'))) continue;
        const source = bySourceName.get(path.basename(rel));
        if (source && !fs.readFileSync(path.join(importsDir, rel)).equals(source)) failures.push(`${label}: half-copied ${rel}`);
      }
      const outside = new Map([...before].filter(([rel]) => !rel.startsWith(path.join('memory', 'imports'))));
      failures.push(...(await checkAfterKill({ ...ws }, outside, label, false).then((p) => p.filter((x) => !x.includes(`${path.join('memory', 'imports')}`)))));
      const again = await runCli(args, ws.env, 120_000);
      if (again.code !== 0) failures.push(`${label}: the next import apply exited ${again.code}: ${firstLine(again.stderr)}`);
      const leftovers = listFiles(importsDir).filter((rel) => rel.includes('.staging-'));
      if (leftovers.length) failures.push(`${label}: ${leftovers.length} staging files left in memory/imports after the next import`);
    }
    return { trials, failures, figures: { kills } };
  },
};
