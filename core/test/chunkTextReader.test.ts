import { describe, expect, it } from 'vitest';
import { packChunkText } from '../src/index/chunkText.js';
import { ChunkTextReader } from '../src/search/chunkTextReader.js';

describe('ChunkTextReader', () => {
  it('reads rows in order, a chunk read twice once, and a kept text only while its row holds the same stored bytes', () => {
    const reader = new ChunkTextReader();
    const heron = { id: 7, text: packChunkText('- The heron survey moved to the north pond.') };
    const atlas = { id: 8, text: packChunkText('- The NAS is called atlas.') };
    expect(reader.texts([heron, atlas, heron])).toEqual(['- The heron survey moved to the north pond.', '- The NAS is called atlas.', '- The heron survey moved to the north pond.']);
    // Chunk 7 deleted and its id reused by another text: the new text, not the kept one.
    const reused = { id: 7, text: packChunkText('- Dentist appointment moved to Thursday.') };
    expect(reader.texts([reused, atlas])).toEqual(['- Dentist appointment moved to Thursday.', '- The NAS is called atlas.']);
    expect(reader.read<{ id: number; path: string; text: string }>([{ ...atlas, path: 'MEMORY.md' }])).toEqual([{ id: 8, path: 'MEMORY.md', text: '- The NAS is called atlas.' }]);
  });

  it('drops the least recently used texts past its budget, and still reads every row', () => {
    const rows = Array.from({ length: 50 }, (_, i) => ({ id: i, text: packChunkText(`- Line ${i}: ${'pond '.repeat(40)}`) }));
    const reader = new ChunkTextReader(2_000);
    expect(reader.texts(rows)).toEqual(rows.map((_, i) => `- Line ${i}: ${'pond '.repeat(40)}`));
    expect(reader.texts(rows.slice(0, 3)).map((t) => t.slice(0, 9))).toEqual(['- Line 0:', '- Line 1:', '- Line 2:']);
  });

  it('says a damaged stored text is damaged', () => {
    const reader = new ChunkTextReader();
    const packed = packChunkText('the heron survey of the pond went well');
    expect(() => reader.texts([{ id: 1, text: packed.subarray(0, 1) }])).toThrow(/damaged|unexpected end|invalid/i);
  });
});
