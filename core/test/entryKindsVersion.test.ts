import { describe, expect, it } from 'vitest';
import { ENTRY_KINDS_VERSION, probeKindsHash } from '../src/index/entryKinds.js';

describe('the stored kinds version', () => {
  it('is what the rules say about the probe lines now (after a rule change, set ENTRY_KINDS_VERSION to the hash this prints)', () => {
    expect(probeKindsHash(), 'entry-kind rules changed: update ENTRY_KINDS_VERSION in core/src/index/entryKinds.ts').toBe(ENTRY_KINDS_VERSION);
  });
});
