/**
 * Chat-model extraction of one file: its entries in batches, asked of the update's chat model
 * session (its own process: a llama.cpp abort or a slow model never reaches the engine), every answer
 * validated, and the surviving items added to the entries the rules extracted, marked as the
 * model's and less sure than the rules. The entries keep their provenance: untrusted lines
 * stay untrusted whoever read them.
 */
import type { ChatModelSession } from '../platform/chatModel/chatProcess.js';
import { labelKey } from './labelKey.js';
import { noDrops, validateExtraction, type DropCounts, type ModelEntity, type ModelRelation } from './modelAnswer.js';
import { buildExtractionPrompt, extractionSchema, type PromptEntry } from './modelPrompt.js';
import type { ExtractedEntry } from './types.js';

/** Below every rule's confidence (relations 0.7, key-value 0.9, co-occurrence 0.5): a model's word is weaker. */
export const MODEL_CONFIDENCE = 0.4;
/** Enough for the grammar's 16 entities and 8 relations with short labels. */
const MAX_ANSWER_TOKENS = 768;

export interface ChatModelChoice {
  path: string;
  /** The model's file name: recorded with what it read, and named in reports. */
  name: string;
}

export interface AskOptions {
  /** The update's model process (the model loads once for all its prompts). */
  chat: Pick<ChatModelSession, 'ask'>;
  timeoutMs: number;
  /** Prompts this file may use at most (the update's remaining budget). */
  maxPrompts: number;
}

export interface FileAnswers {
  entities: ModelEntity[];
  relations: ModelRelation[];
  prompts: number;
  promptMs: number[];
  /** Items the model offered, and those dropped, by rule. */
  offered: number;
  dropped: DropCounts;
  /** Answers thrown out whole (not JSON, or the wrong shape), with why. */
  rejected: string[];
  /** Batches not asked (over the budget). */
  unasked: number;
  /** Set when the model process failed (load error, abort, timeout): the file was not read. */
  failure: string | null;
}

/** Asks the chat model about a file's batches, in order, up to `maxPrompts`; stops at the first process failure. */
export async function askModel(batches: readonly PromptEntry[][], options: AskOptions): Promise<FileAnswers> {
  const answers: FileAnswers = { entities: [], relations: [], prompts: 0, promptMs: [], offered: 0, dropped: noDrops(), rejected: [], unasked: 0, failure: null };
  for (const [i, batch] of batches.entries()) {
    if (i >= options.maxPrompts) {
      answers.unasked = batches.length - i;
      break;
    }
    const started = performance.now();
    const answer = await options.chat.ask({
      prompt: buildExtractionPrompt(batch),
      schema: extractionSchema(batch),
      timeoutMs: options.timeoutMs,
      maxTokens: MAX_ANSWER_TOKENS,
    });
    answers.prompts++;
    answers.promptMs.push(Math.round(performance.now() - started));
    if (!answer.ok) {
      if (answer.answered) {
        answers.rejected.push(answer.reason);
        continue;
      }
      answers.failure = answer.reason;
      break;
    }
    const verdict = validateExtraction(batch, answer.json);
    if (!verdict.ok) {
      answers.rejected.push(`the chat model's answer was rejected: ${verdict.reason}`);
      continue;
    }
    answers.entities.push(...verdict.entities);
    answers.relations.push(...verdict.relations);
    answers.offered += verdict.offered;
    for (const [rule, n] of Object.entries(verdict.dropped) as Array<[keyof DropCounts, number]>) answers.dropped[rule] += n;
  }
  return answers;
}

/**
 * The file's entries with the model's items added: a name the entry already has is the
 * rules' (the model adds nothing there, unless the rules were about to drop it as a mere
 * sentence-initial word), a new one is a weak mention in the model's type,
 * and a relation is a claim at MODEL_CONFIDENCE unless the entry already states it.
 * Returns new entries; the given ones are not changed.
 */
export function addModelItems(
  entries: readonly ExtractedEntry[],
  entities: readonly ModelEntity[],
  relations: readonly ModelRelation[],
): { entries: ExtractedEntry[]; entities: number; claims: number } {
  const merged = entries.map((e) => ({ ...e, entities: [...e.entities], claims: [...e.claims] }));
  const indexes = new Map<number, Map<string, number>>();
  const indexOf = (entryIndex: number): Map<string, number> => {
    let map = indexes.get(entryIndex);
    if (!map) {
      map = new Map();
      merged[entryIndex]!.entities.forEach((m, i) => map!.set(labelKey(m.label), map!.get(labelKey(m.label)) ?? i));
      indexes.set(entryIndex, map);
    }
    return map;
  };
  let addedEntities = 0;
  let addedClaims = 0;
  const place = (entity: ModelEntity): number => {
    const map = indexOf(entity.entry.index);
    const known = map.get(entity.key);
    const list = merged[entity.entry.index]!.entities;
    if (known !== undefined) {
      // A sentence-initial word the rules would drop is a name once the model names it too (the model's, then).
      if (list[known]!.certainty === 'tentative') {
        list[known] = { type: entity.type, label: list[known]!.label, certainty: 'weak', byModel: true };
        addedEntities++;
      }
      return known;
    }
    list.push({ type: entity.type, label: entity.label, certainty: 'weak', byModel: true });
    map.set(entity.key, list.length - 1);
    addedEntities++;
    return list.length - 1;
  };
  for (const entity of entities) place(entity);
  for (const r of relations) {
    const subject = place(r.subject);
    const object = place(r.object);
    const claims = merged[r.entry.index]!.claims;
    if (subject === object || claims.some((c) => c.subject === subject && c.object === object && c.predicate === r.predicate)) continue;
    claims.push({ subject, predicate: r.predicate, object, literal: null, confidence: MODEL_CONFIDENCE, byModel: true });
    addedClaims++;
  }
  return { entries: merged, entities: addedEntities, claims: addedClaims };
}
