/**
 * Import figures: plan and apply 2,000 Markdown files (50 MB) from a Codex home, then the same
 * import again in one step and from the saved plan (both copy nothing). Goals from the imports
 * issue: first plan + apply ≤ 10 s, each repeat ≤ 1 s.
 */
import fs from 'node:fs';
import path from 'node:path';
import { applyImport } from '../../core/src/importers/apply.js';
import { planImport } from '../../core/src/importers/plan.js';
import { makeTempWorkspace, removeTempWorkspace } from './engine.js';
import { log, round } from './stats.js';

export interface ImportFigures {
  import_files: number;
  import_mb: number;
  import_plan_s: number;
  import_apply_s: number;
  /** `reverie import apply` without --plan on an unchanged source: plan + apply, copies 0. */
  import_repeat_s: number;
  /** The saved plan applied again (its fingerprint re-checked against the disk), copies 0. */
  import_repeat_saved_plan_s: number;
}

const FILE_BYTES = 25 * 1024;

/** A Codex home with `files` rollout summaries of 25 KB each. */
export function writeCodexHome(home: string, files: number): void {
  const summaries = path.join(home, 'memories', 'rollout_summaries');
  fs.mkdirSync(summaries, { recursive: true });
  for (let i = 0; i < files; i++) {
    const head = `# Rollout ${i}\n`;
    const line = `- note ${i}: the migration check passed after renaming the newer file.\n`;
    const body = line.repeat(Math.ceil(FILE_BYTES / line.length)).slice(0, FILE_BYTES - head.length);
    fs.writeFileSync(path.join(summaries, `rollout-${String(i).padStart(4, '0')}.md`), head + body);
  }
}

export async function runImportersBench(quick: boolean): Promise<ImportFigures> {
  const files = quick ? 500 : 2_000;
  const ws = makeTempWorkspace('imports');
  try {
    const home = path.join(ws.root, 'codex-home');
    writeCodexHome(home, files);
    log(`Imports: ${files} files × 25 KB from a Codex home …`);
    const options = { workspaceRoot: ws.workspace, dataDir: ws.dataDir };
    const sources = [{ tool: 'codex' as const, home }];
    const t0 = performance.now();
    const plan = await planImport({ workspaceRoot: ws.workspace, sources });
    const t1 = performance.now();
    const first = await applyImport(plan, options);
    const t2 = performance.now();
    if (first.copied !== files) throw new Error(`the first import copied ${first.copied} of ${files} files`);
    const fresh = await planImport({ workspaceRoot: ws.workspace, sources });
    const again = await applyImport(fresh, { ...options, verifyFingerprint: false });
    const t3 = performance.now();
    const saved = await applyImport(plan, options);
    const t4 = performance.now();
    if (again.copied + saved.copied !== 0) throw new Error('a repeated import copied files again');
    const figures: ImportFigures = {
      import_files: files,
      import_mb: round((files * FILE_BYTES) / 1024 / 1024, 1),
      import_plan_s: round((t1 - t0) / 1000, 3),
      import_apply_s: round((t2 - t1) / 1000, 3),
      import_repeat_s: round((t3 - t2) / 1000, 3),
      import_repeat_saved_plan_s: round((t4 - t3) / 1000, 3),
    };
    log(
      `  plan ${figures.import_plan_s} s + apply ${figures.import_apply_s} s (goal ≤ 10 s together); ` +
        `repeat in one step ${figures.import_repeat_s} s, saved plan ${figures.import_repeat_saved_plan_s} s (goal ≤ 1 s each); both copied 0`,
    );
    return figures;
  } finally {
    removeTempWorkspace(ws);
  }
}
