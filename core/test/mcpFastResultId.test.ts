import { describe, expect, it } from 'vitest';
import { resultId } from '../src/cli/fast/mcpFast.js';

/** `reverie mcp` learns which calls the host answered from the end of each result line, without parsing the whole answer. */
describe('resultId (the thin MCP bridge)', () => {
  const line = (message: object) => JSON.stringify(message);

  it('reads the id of a result, numeric or a string with escapes, as JSON.parse would', () => {
    const text = 'recalled "id":9} text, with "quotes" and \\ backslashes'.repeat(200);
    expect(resultId(line({ result: { content: [{ type: 'text', text }], id: 9 }, jsonrpc: '2.0', id: 41 }))).toBe(41);
    const id = 'call "7" \\ of a client';
    expect(resultId(line({ result: {}, jsonrpc: '2.0', id }))).toBe(id);
    expect(resultId(`${line({ result: {}, jsonrpc: '2.0', id: 3 })}\r`)).toBe(3);
  });

  it('leaves every other line to a full parse: requests, notifications, errors, other key orders', () => {
    expect(resultId(line({ jsonrpc: '2.0', id: 5, method: 'roots/list' }))).toBeUndefined();
    expect(resultId(line({ jsonrpc: '2.0', method: 'notifications/message', params: { id: 1 } }))).toBeUndefined();
    expect(resultId(line({ jsonrpc: '2.0', id: 6, error: { code: -32602, message: 'no' } }))).toBeUndefined();
    expect(resultId(line({ jsonrpc: '2.0', id: 8, result: {} }))).toBeUndefined();
    expect(resultId(line({ result: { jsonrpc: '2.0', id: 2 } }))).toBeUndefined();
  });
});
