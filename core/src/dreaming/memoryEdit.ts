import type { DreamPromotion, DreamRun } from '../contract/index.js';
import { consolidateWithModel } from './consolidation/consolidate.js';
import { enforceMemoryBudget } from './curated/budget.js';
import { promotionEntryLine, promotionMarker } from './curated/memoryFile.js';
import { placePromotions } from './curated/placement.js';
import { retireForBudget } from './curated/retireForBudget.js';
import { applyDirective } from './curated/userFile.js';
import { writtenEntryLine } from './consolidation/expected.js';
import { promotionRecord, toConsolidationCandidate } from './promotionPlan.js';
import type { PromotionToWrite, TextEdit } from './types.js';

export interface MemoryEditResult {
  edit: TextEdit & { removed: string[] };
  promotions: DreamPromotion[];
  consolidation: DreamRun['consolidation'];
  /** Set when nothing can be written: the candidates are reported as not written, with this reason. */
  refused: string | null;
}

export interface MemoryEditOptions {
  day: string;
  budgetChars: number;
  chatModelPath: string | null;
  chatModelName: string | null;
  timeoutMs: number;
}

/**
 * MEMORY.md's new text for this sweep's promotions: compact old generated sections if the
 * budget needs it, then the chat model's validated consolidation, or the append-only fallback.
 */
export async function planMemoryEdit(memoryText: string, promotions: PromotionToWrite[], options: MemoryEditOptions): Promise<MemoryEditResult> {
  const none: DreamRun['consolidation'] = { mode: 'none', model: null, fallbackReason: null };
  if (promotions.length === 0) return { edit: { text: memoryText, added: [], changed: [], removed: [] }, promotions: [], consolidation: none, refused: null };
  const compacted = enforceMemoryBudget(memoryText, options.budgetChars);
  let base = compacted.text;
  let removed: string[] = [];
  if (compacted.overBudget) {
    const retired = retireForBudget(base, options.day);
    if (retired.text.length > options.budgetChars) {
      return {
        edit: { text: memoryText, added: [], changed: [], removed: [] },
        promotions: [],
        consolidation: none,
        refused: `MEMORY.md is over its ${options.budgetChars}-character budget even with generated sections compacted${retiredClause(retired.removed)} (your current entries are never removed to make room); the promotions stay staged. Trim it or raise the budget in Settings.`,
      };
    }
    base = retired.text;
    removed = retired.removed;
  }
  let fallbackReason: string | null = null;
  if (options.chatModelPath) {
    const result = await consolidateWithModel({
      modelPath: options.chatModelPath,
      input: { candidates: promotions.map(toConsolidationCandidate), memoryText: base, day: options.day, budgetChars: options.budgetChars },
      timeoutMs: options.timeoutMs,
    });
    if (result.mode === 'model') {
      const byKey = new Map(promotions.map((p) => [p.candidateKey, p]));
      return {
        edit: { ...result.edit, changed: [...compacted.changed, ...result.edit.changed], removed: [...removed, ...result.edit.removed] },
        promotions: result.operations.map((op) =>
          promotionRecord(op.candidateKey, 'MEMORY.md', linesOfOperation(byKey.get(op.candidateKey)!), 'auto', op.action, op.priorEntries),
        ),
        consolidation: { mode: 'model', model: options.chatModelName, fallbackReason: null },
        refused: null,
      };
    }
    fallbackReason = result.reason;
  }
  let appended = placePromotions(base, promotions, options.day);
  if (appended.text.length > options.budgetChars && removed.length === 0) {
    // No room: entries that no longer hold (superseded, expired) retire first.
    const retired = retireForBudget(base, options.day);
    if (retired.removed.length > 0) {
      base = retired.text;
      removed = retired.removed;
      appended = placePromotions(base, promotions, options.day);
    }
  }
  if (appended.text.length > options.budgetChars) {
    return {
      edit: { text: memoryText, added: [], changed: [], removed: [] },
      promotions: [],
      consolidation: { mode: 'fallback', model: options.chatModelName, fallbackReason },
      refused: `Writing these promotions would take MEMORY.md past its ${options.budgetChars}-character budget${retiredClause(removed)}; they stay staged. Trim MEMORY.md or raise the budget in Settings.`,
    };
  }
  return {
    edit: { text: appended.text, added: appended.added, changed: [...compacted.changed], removed },
    promotions: promotions.map((p) => promotionRecord(p.candidateKey, 'MEMORY.md', [promotionMarker(p.candidateKey), promotionEntryLine(p)], 'auto')),
    consolidation: { mode: 'fallback', model: options.chatModelName, fallbackReason },
    refused: null,
  };
}

function retiredClause(removed: readonly string[]): string {
  const entries = removed.filter((line) => !line.trimStart().startsWith('<!--')).length;
  return entries === 0 ? ', and it holds no superseded or expired entry to retire' : ` even after retiring ${entries} superseded or expired entr${entries === 1 ? 'y' : 'ies'}`;
}

function linesOfOperation(p: PromotionToWrite): string[] {
  return [`<!-- openclaw-memory-lineage:${p.lineageKey} -->`, promotionMarker(p.candidateKey), writtenEntryLine(toConsolidationCandidate(p))];
}

/** USER.md's new text: each preference applied in turn, superseding an active directive of the same lineage in place. */
export function planUserEdit(userText: string, promotions: PromotionToWrite[]): { edit: TextEdit; promotions: DreamPromotion[] } {
  let text = userText;
  const added: string[] = [];
  const changed: TextEdit['changed'] = [];
  const records: DreamPromotion[] = [];
  for (const p of promotions) {
    // `observed` is when the person said it (the note's day), never when the sweep read it: unknown stays unknown.
    const result = applyDirective(text, { text: p.text, observed: p.observedDay ?? null, annotations: p.annotations });
    if (result.added.length === 0) continue;
    text = result.text;
    added.push(...result.added);
    changed.push(...result.changed);
    records.push(promotionRecord(p.candidateKey, 'USER.md', result.added, 'auto', result.superseded.length > 0 ? 'superseded' : 'added', result.superseded));
  }
  return { edit: { text, added, changed }, promotions: records };
}
