/** Small readers for untyped JSONL records: every transcript field is optional and may have any type. */
export type JsonRecord = Record<string, unknown>;

export function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function stringField(record: JsonRecord, key: string): string | null {
  const value = record[key];
  return typeof value === 'string' ? value : null;
}

export function recordField(record: JsonRecord, key: string): JsonRecord | null {
  const value = record[key];
  return isRecord(value) ? value : null;
}

export function arrayField(record: JsonRecord, key: string): unknown[] {
  const value = record[key];
  return Array.isArray(value) ? value : [];
}

// What Date#toISOString writes for years 0000–9999: such a string, if a real UTC time, is its own result.
const CANONICAL_ISO = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** ISO 8601 from an ISO string or epoch milliseconds (seconds when small); null when absent or unparseable. */
export function isoTimestamp(value: unknown): string | null {
  // Most transcript lines carry one already (Claude Code, Codex): parsing and writing it again
  // cost a reader 4 % of its time. Day 31 of a 30-day month still goes the long way.
  if (typeof value === 'string' && CANONICAL_ISO.test(value) && Number(value.slice(8, 10)) <= 28) return value;
  let ms: number;
  if (typeof value === 'string') ms = Date.parse(value);
  else if (typeof value === 'number' && Number.isFinite(value)) ms = value < 1e11 ? value * 1000 : value;
  else return null;
  if (!Number.isFinite(ms)) return null;
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** The text of `{type: 'text', text}`-style blocks (or a plain string content), in order. */
export function textBlocks(content: unknown, textTypes: readonly string[] = ['text']): string[] {
  if (typeof content === 'string') return [content];
  const texts: string[] = [];
  if (!Array.isArray(content)) return texts;
  for (const block of content) {
    if (typeof block === 'string') texts.push(block);
    else if (isRecord(block) && typeof block.type === 'string' && textTypes.includes(block.type) && typeof block.text === 'string') {
      texts.push(block.text);
    }
  }
  return texts;
}
