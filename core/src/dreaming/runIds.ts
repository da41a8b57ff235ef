import { randomBytes } from 'node:crypto';

/** `dream:20261130T030000Z-a1b2c3`: sortable by time, unique across processes. */
export function newDreamRunId(at: number): string {
  const stamp = new Date(at).toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  return `dream:${stamp}-${randomBytes(3).toString('hex')}`;
}
