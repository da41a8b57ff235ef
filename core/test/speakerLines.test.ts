import { describe, expect, it } from 'vitest';
import { hasLineSpokenBy, isSpokenBy, lineSpeaker, namedPeople } from '../src/search/speakerLines.js';

describe('speaker lines', () => {
  it('reads the speaker a chat, meeting or transcript line opens with', () => {
    expect(lineSpeaker('- [D1:3] Caroline: I went to a support group yesterday.')).toBe('caroline');
    expect(lineSpeaker('**Sam Lee:** the launch slipped a week')).toBe('sam lee');
    expect(lineSpeaker('3. Ana: bring the slides')).toBe('ana');
    expect(lineSpeaker('- [10:42] Jean-Luc: on my way')).toBe('jean-luc');
  });

  it('finds no speaker in prose, in a lower-case label or in a name followed by more words', () => {
    expect(lineSpeaker('- Caroline said: see you soon')).toBeNull();
    expect(lineSpeaker('todo: water the plants')).toBeNull();
    expect(lineSpeaker('Went hiking with Melanie: great views')).toBeNull();
    expect(lineSpeaker('')).toBeNull();
  });

  it('matches any single name of a speaker', () => {
    expect(isSpokenBy('**Sam Lee:** hi', new Set(['lee']))).toBe(true);
    expect(isSpokenBy('- [D2:1] Melanie: Thanks, Caroline!', new Set(['caroline']))).toBe(false);
    expect(hasLineSpokenBy('# Chat\n\n- Melanie: hi\n- Caroline: hello', new Set(['caroline']))).toBe(true);
    expect(hasLineSpokenBy('- Postgres upgrade scheduled for Friday', new Set(['postgres']))).toBe(false);
  });

  it('takes the capitalised words of a question as the people it may name, without stop words or possessives', () => {
    expect([...namedPeople("What activities has Melanie's family done?")]).toEqual(['melanie']);
    expect([...namedPeople('Which city have both Jean and John visited?')]).toEqual(['jean', 'john']);
    expect(namedPeople('where is the config file').size).toBe(0);
    expect(namedPeople('?!… ,;').size).toBe(0);
  });
});
