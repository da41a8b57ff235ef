import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { collapseWhitespace, normalizeWhitespace } from '../src/sessions/normalize.js';
import { collectTranscript, isTranscriptSkipped } from '../src/sessions/readTranscript.js';
import { hashRecalledKey, recalledHashMatcher, recalledKeyHashes, recalledLineKey, recalledLineMatcher, stripRecalledText } from '../src/sessions/recalled.js';

describe('normalizeWhitespace', () => {
  it('collapses spaces and tabs, trims lines and text, keeps newlines and at most two blank lines', () => {
    expect(normalizeWhitespace('  hello \t  world  \r\n\tsecond\u00a0\u00a0line\n\n\n\n\n\nthird\n\n')).toBe('hello world\nsecond line\n\n\nthird');
    expect(normalizeWhitespace('a\n\nb')).toBe('a\n\nb');
    expect(normalizeWhitespace('\n\n  \n')).toBe('');
    expect(normalizeWhitespace('bell\u0007 and nul\u0000 gone')).toBe('bell and nul gone');
  });

  it('returns text it would not change as is, and otherwise what the line-by-line collapse gives', () => {
    // Random strings over the characters that matter: every kind of space, line end and control.
    const alphabet = ['a', 'b', ' ', ' ', '\n', '\n', '\r', '\t', '\v', '\f', '\u0000', '\u0007', '\u001f', '\u007f', '\u0085', '\u00a0', '\u1680', '\u2003', '\u2028', '\u2029', '\u202f', '\u3000', '\ufeff', 'é'];
    let seed = 1;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    let unchanged = 0;
    for (let i = 0; i < 20_000; i++) {
      let text = '';
      const length = Math.floor(next() * 14);
      for (let k = 0; k < length; k++) text += alphabet[Math.floor(next() * alphabet.length)];
      const collapsed = collapseWhitespace(text);
      expect(normalizeWhitespace(text), JSON.stringify(text)).toBe(collapsed);
      if (collapsed === text) unchanged++;
    }
    // Both paths were taken many times.
    expect(unchanged).toBeGreaterThan(1_000);
    expect(unchanged).toBeLessThan(19_000);
  });
});

describe('stripRecalledText', () => {
  it('removes Reverie memory framing, system reminders and memory plugin blocks', () => {
    const text = [
      'What did I decide about backups?',
      '<reverie-memory source="MEMORY.md" origin="owner">',
      '- The NAS is called atlas and runs restic backups.',
      '</reverie-memory>',
      '<system-reminder>CLAUDE.md says: prefer small commits.</system-reminder>',
      '<relevant-memories>\n- [fact] atlas backs up nightly\n</relevant-memories>',
      'And is it still nightly?',
    ].join('\n');
    expect(stripRecalledText(text)).toEqual({ text: 'What did I decide about backups?\nAnd is it still nightly?', stripped: 3 });
  });

  it('strips a truncated injected block to the end, and AGENTS.md bootstrap blocks', () => {
    expect(stripRecalledText('Question first.\n<reverie-memory>\n- half a memory')).toEqual({ text: 'Question first.', stripped: 1 });
    const agents = '# AGENTS.md instructions for /home/dana/src\n\n<INSTRUCTIONS>\nAlways run make check.\n</INSTRUCTIONS>\nfix the build';
    expect(stripRecalledText(agents)).toEqual({ text: 'fix the build', stripped: 1 });
  });

  it('removes lines the caller recognises as recalled memory, counting runs', () => {
    const isRecalled = recalledLineMatcher([
      '- The NAS is called atlas and runs restic backups to a Hetzner storage box.',
      '- Prefers terse answers. <!-- importance: 8 -->',
      'ok',
    ]);
    const text = [
      'From memory:',
      '* the NAS is called atlas and runs restic backups to a Hetzner storage box.',
      'Prefers terse answers.',
      'So yes, backups go to Hetzner.',
      'ok',
    ].join('\n');
    expect(stripRecalledText(text, isRecalled)).toEqual({ text: 'From memory:\nSo yes, backups go to Hetzner.\nok', stripped: 1 });
  });

  it('keeps memory line keys as sorted, distinct hashes in shared memory, short lines left out', () => {
    const lines = ['- Backups run nightly at 02:00 to the NAS.', '* backups run NIGHTLY at 02:00 to the nas.', 'ok', '', 'Dana owns the payments-gateway repo.'];
    const hashes = recalledKeyHashes(lines);
    expect(hashes.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(Array.from(hashes)).toEqual([...new Set([lines[0]!, lines[4]!].map((l) => hashRecalledKey(recalledLineKey(l))))].sort((a, b) => a - b));
    const isRecalled = recalledHashMatcher(hashes);
    expect(isRecalled('Backups run nightly at 02:00 to the NAS.')).toBe(true);
    expect(isRecalled('Dana owns the payments-gateway repo.')).toBe(true);
    expect(isRecalled('Dana owns the payments-gateway repos.')).toBe(false);
    expect(isRecalled('ok')).toBe(false);
    expect(recalledHashMatcher(new Float64Array(0))('Backups run nightly at 02:00 to the NAS.')).toBe(false);
  });

  it('gives 200,000 different line keys 200,000 different hashes, each an exact integer below 2^53', () => {
    const seen = new Set<number>();
    let outOfRange = 0;
    for (let i = 0; i < 200_000; i++) {
      const hash = hashRecalledKey(`note line ${i} about host-${i % 977} on port ${i * 7}`);
      if (!Number.isSafeInteger(hash) || hash < 0) outOfRange += 1;
      seen.add(hash);
    }
    expect(outOfRange).toBe(0);
    expect(seen.size).toBe(200_000);
  });

  it('drops a message that was only recalled memory and counts it', async () => {
    const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-recalled-')));
    try {
      const file = path.join(dir, 'recall.jsonl');
      const entry = (type: string, content: unknown) => JSON.stringify({ type, sessionId: 's', uuid: `${Math.random()}`, message: { role: type, content } });
      fs.writeFileSync(
        file,
        [
          entry('user', '<reverie-memory>\n- Dentist moved to Thursday.\n</reverie-memory>'),
          entry('user', 'When is the dentist?'),
          entry('assistant', [{ type: 'text', text: 'Dentist appointment moved to Thursday.' }]),
          entry('assistant', [{ type: 'text', text: 'Anything else for Thursday?' }]),
        ].join('\n') + '\n',
      );
      const { messages, outcome } = await collectTranscript(file, { isRecalledText: recalledLineMatcher(['- Dentist appointment moved to Thursday.']) });
      expect(messages.map((m) => [m.role, m.text])).toEqual([
        ['user', 'When is the dentist?'],
        ['assistant', 'Anything else for Thursday?'],
      ]);
      expect(isTranscriptSkipped(outcome) ? null : outcome.stats.recalledStripped).toBe(2);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
