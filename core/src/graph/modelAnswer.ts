/**
 * Keeps only what code can vouch for in a chat model's extraction: an item must cite an entry
 * of its prompt, an entity's label must occur in that entry's text (case, spacing and
 * diacritics folded, on word boundaries), its type must be one a model may give, and a
 * relation must join two such entities of the same entry. Everything else is dropped and
 * counted by rule, so a report can say why nothing was kept.
 */
import type { EntityType } from '../contract/index.js';
import { cleanLabel, labelKey } from './labelKey.js';
import { MAX_LABEL_CHARS, MAX_PREDICATE_CHARS, MODEL_ENTITY_TYPES, type PromptEntry } from './modelPrompt.js';
import { MENTIONED_WITH } from './types.js';
import { hasUnspacedText } from '../contract/unspacedScripts.js';

export interface ModelEntity {
  entry: PromptEntry;
  /** As the entry spells it when it can be found verbatim, else as the model wrote it. */
  label: string;
  key: string;
  type: EntityType;
}

export interface ModelRelation {
  entry: PromptEntry;
  subject: ModelEntity;
  predicate: string;
  object: ModelEntity;
}

export const DROP_RULES = ['malformed', 'unknownEntry', 'typeNotAllowed', 'labelNotInText', 'unknownEnd', 'badPredicate'] as const;
export type DropRule = (typeof DROP_RULES)[number];
export type DropCounts = Record<DropRule, number>;

export type ValidatedExtraction =
  | { ok: true; entities: ModelEntity[]; relations: ModelRelation[]; offered: number; dropped: DropCounts }
  | { ok: false; reason: string };

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const ALLOWED_TYPES: ReadonlySet<string> = new Set(MODEL_ENTITY_TYPES);
const PREDICATE = new RegExp(`^\\p{L}[\\p{L}\\p{N}_]{0,${MAX_PREDICATE_CHARS - 1}}$`, 'u');
const WORD_CHAR = /[\p{L}\p{N}]/u;

export function noDrops(): DropCounts {
  return { malformed: 0, unknownEntry: 0, typeNotAllowed: 0, labelNotInText: 0, unknownEnd: 0, badPredicate: 0 };
}

export function validateExtraction(batch: readonly PromptEntry[], output: unknown): ValidatedExtraction {
  if (!isRecord(output) || (!Array.isArray(output.entities) && !Array.isArray(output.relations))) {
    return { ok: false, reason: 'the answer has neither an "entities" nor a "relations" array' };
  }
  const rawEntities: unknown[] = Array.isArray(output.entities) ? output.entities : [];
  const rawRelations: unknown[] = Array.isArray(output.relations) ? output.relations : [];
  const byId = new Map(batch.map((e) => [e.id, e]));
  const textKeys = new Map<PromptEntry, string>();
  const textKeyOf = (entry: PromptEntry) => textKeys.get(entry) ?? textKeys.set(entry, labelKey(entry.text)).get(entry)!;
  const dropped = noDrops();
  const entities: ModelEntity[] = [];
  const known = new Map<string, ModelEntity>(); // entry id + key

  for (const item of rawEntities) {
    if (!isRecord(item) || typeof item.entry !== 'string' || typeof item.label !== 'string' || typeof item.type !== 'string') {
      dropped.malformed++;
      continue;
    }
    const entry = byId.get(item.entry);
    if (!entry) {
      dropped.unknownEntry++;
      continue;
    }
    if (!ALLOWED_TYPES.has(item.type)) {
      dropped.typeNotAllowed++;
      continue;
    }
    const label = cleanLabel(item.label);
    const key = labelKey(label);
    if (key.length < 2 || label.length > MAX_LABEL_CHARS || !occursIn(textKeyOf(entry), key)) {
      dropped.labelNotInText++;
      continue;
    }
    const id = `${entry.id}\u0000${key}`;
    if (known.has(id)) continue; // named twice: once is enough
    const entity: ModelEntity = { entry, label: spellingIn(entry.text, label) ?? label, key, type: item.type as EntityType };
    known.set(id, entity);
    entities.push(entity);
  }

  const relations: ModelRelation[] = [];
  const stated = new Set<string>();
  for (const item of rawRelations) {
    if (!isRecord(item) || typeof item.entry !== 'string' || typeof item.subject !== 'string' || typeof item.predicate !== 'string' || typeof item.object !== 'string') {
      dropped.malformed++;
      continue;
    }
    const entry = byId.get(item.entry);
    if (!entry) {
      dropped.unknownEntry++;
      continue;
    }
    const subject = known.get(`${entry.id}\u0000${labelKey(item.subject)}`);
    const object = known.get(`${entry.id}\u0000${labelKey(item.object)}`);
    if (!subject || !object || subject === object) {
      dropped.unknownEnd++;
      continue;
    }
    const predicate = labelKey(item.predicate).replace(/[\s-]+/g, '_');
    if (!PREDICATE.test(predicate) || predicate === MENTIONED_WITH) {
      dropped.badPredicate++;
      continue;
    }
    const id = `${entry.id}|${subject.key}|${predicate}|${object.key}`;
    if (stated.has(id)) continue;
    stated.add(id);
    relations.push({ entry, subject, predicate, object });
  }
  return { ok: true, entities, relations, offered: rawEntities.length + rawRelations.length, dropped };
}

/** Whether `key` occurs in `textKey` (both folded by labelKey) where a word starts and ends. */
export function occursIn(textKey: string, key: string): boolean {
  for (let at = textKey.indexOf(key); at >= 0; at = textKey.indexOf(key, at + 1)) {
    const before = textKey[at - 1];
    const after = textKey[at + key.length];
    if (isEdge(before, key[0]!) && isEdge(after, key.at(-1)!)) return true;
  }
  return false;
}

function isEdge(neighbour: string | undefined, edge: string): boolean {
  if (neighbour === undefined || !WORD_CHAR.test(neighbour) || !WORD_CHAR.test(edge)) return true;
  return hasUnspacedText(neighbour) || hasUnspacedText(edge);
}

/** The entry's own spelling of a label that differs only in case or spacing ("Ada Lovelace" for "ADA LOVELACE"). */
function spellingIn(text: string, label: string): string | null {
  const collapsed = text.replace(/\s+/g, ' ');
  const lower = collapsed.toLowerCase();
  // Offsets carry over only where lower-casing keeps lengths (it does not for a few letters, such as İ).
  if (lower.length !== collapsed.length) return null;
  const at = lower.indexOf(label.toLowerCase());
  return at >= 0 ? collapsed.slice(at, at + label.length) : null;
}
