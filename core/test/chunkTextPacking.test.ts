import { constants, deflateRawSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { packChunkText, unpackChunkText, unpackChunkTexts } from '../src/index/chunkText.js';

/** Text deflate cannot shrink (a fixed pseudo-random sequence): its stream outgrows any small output buffer. */
function incompressible(chars: number): string {
  let x = 0x9e3779b9;
  let out = '';
  for (let i = 0; i < chars; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += String.fromCharCode(0x21 + ((x >>> 0) % 94));
  }
  return out;
}

describe('stored chunk text', () => {
  const texts = ['', '- The heron survey moved to the north pond.', '- Kestrelの再処理ジョブ。\n'.repeat(60), '[2026-05-01 09:00] user: why does the cutoff drift?\n'.repeat(30), incompressible(20_000)];

  it('is the same stream whatever the size of the output buffer zlib writes it into, and reads back', () => {
    for (const text of texts) {
      const packed = packChunkText(text);
      const stream = deflateRawSync(Buffer.from(text, 'utf8'), { level: 1, finishFlush: constants.Z_SYNC_FLUSH });
      // Past the length header (LEB128), the stream zlib writes with its default 16 KB buffer.
      const header = packed.length - stream.length;
      expect(header).toBeGreaterThanOrEqual(1);
      expect(packed.subarray(header)).toEqual(stream);
      expect(unpackChunkText(packed)).toBe(text);
    }
    expect(unpackChunkTexts(texts.map(packChunkText))).toEqual(texts);
  });
});
