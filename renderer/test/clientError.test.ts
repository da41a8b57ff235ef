import { describe, expect, it } from 'vitest';
import { MemoryClientError, toClientError } from '../src/client/clientError.js';

describe('toClientError', () => {
  it('keeps the code of an error object that carries one', () => {
    const error = toClientError(Object.assign(new Error('busy'), { code: 'locked' }));
    expect(error).toBeInstanceOf(MemoryClientError);
    expect(error.code).toBe('locked');
  });

  it('recovers the code from an error flattened by Electron IPC', () => {
    const error = toClientError(new Error("Error invoking remote method 'reverie:call': Error: conflict: MEMORY.md changed on disk"));
    expect(error.code).toBe('conflict');
    expect(error.message).toBe('MEMORY.md changed on disk');
  });

  it('falls back to internal', () => {
    expect(toClientError(new Error('boom')).code).toBe('internal');
  });
});
