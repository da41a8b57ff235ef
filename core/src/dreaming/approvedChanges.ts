import type { DreamFileWrite, DreamPromotion, DreamRun } from '../contract/index.js';
import { normalizeEntryText } from '../workspace/markdownEntries.js';
import { splitLines } from './curated/lines.js';
import type { PreImageFile } from '../workspace/preImages.js';

type Change = DreamFileWrite['changed'][number];

/**
 * The in-place changes a promotion made in its file (the status flip of the directive it
 * superseded, a line it rewrote): changes whose new line is one of the promotion's lines, or
 * whose old line held an entry the promotion replaced. Reject puts them back; a rollback keeps
 * them for an approved promotion, so an approved preference never stands beside the one it
 * replaced.
 */
export function changesOfPromotion(run: DreamRun, promotion: DreamPromotion): Change[] {
  const lines = new Set(promotion.lines);
  const priors = promotion.priorEntries.map(normalizeEntryText).filter((p) => p !== '');
  return run.writes
    .filter((w) => w.file === promotion.target && (w.outcome === 'written' || w.outcome === 'writing'))
    .flatMap((w) => w.changed)
    .filter((c) => lines.has(c.after) || priors.some((p) => normalizeEntryText(c.before).includes(p)));
}

/** What a rollback leaves in a file because the person approved it: the lines and the changes. */
export interface KeptByApproval {
  lines: ReadonlySet<string>;
  changes: ReadonlySet<Change>;
  promotions: DreamPromotion[];
}

export function keptByApproval(run: DreamRun, file: PreImageFile): KeptByApproval {
  const promotions = run.promoted.filter((p) => p.decision === 'approved' && p.target === file);
  return {
    lines: new Set(promotions.flatMap((p) => p.lines)),
    changes: new Set(promotions.flatMap((p) => changesOfPromotion(run, p))),
    promotions,
  };
}

/**
 * The run's added lines a rollback takes out of a curated file: all but the approved ones, and
 * but the headings (`## Promoted From Short-Term Memory (…)`, a new file's title) an approved
 * line still sits under, so a kept promotion stays in its own section instead of sliding under
 * the section before it.
 */
export function addedLinesToUndo(text: string, added: readonly string[], kept: ReadonlySet<string>): string[] {
  const toUndo = added.filter((line) => !kept.has(line));
  if (kept.size === 0) return toUndo;
  const lines = splitLines(text).lines;
  lines.forEach((line, i) => {
    const level = headingLevel(line);
    if (level === 0) return;
    const at = toUndo.indexOf(line);
    if (at < 0) return;
    for (let k = i + 1; k < lines.length; k++) {
      const inner = headingLevel(lines[k]!);
      if (inner > 0 && inner <= level) break;
      if (kept.has(lines[k]!)) {
        toUndo.splice(at, 1);
        break;
      }
    }
  });
  return toUndo;
}

function headingLevel(line: string): number {
  return /^(#{1,6})\s/.exec(line)?.[1]!.length ?? 0;
}
