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

/** ISO 8601 from an ISO string or epoch milliseconds (seconds when small); null when absent or unparseable. */
export function isoTimestamp(value: unknown): string | null {
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
