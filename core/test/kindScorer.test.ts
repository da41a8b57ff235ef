import { describe, expect, it } from 'vitest';
import { classifyByRules, classifyEntry } from '../src/workspace/entryKind.js';
import { kindFeatures } from '../src/workspace/kindFeatures.js';
import { combineWithRules, scoreKind, type KindScorerModel } from '../src/workspace/kindScorer.js';
import { KIND_SCORER_MODEL_JSON } from '../src/workspace/kindScorerModel.js';

// Lines written for these tests (not taken from the kind benchmark or the curation folds).
const NOTE_DAY = '2026-10-20';
const kindOf = (line: string): string => classifyEntry(line, NOTE_DAY).kind;
const NEVER_PROMOTED = ['task', 'question', 'event', 'time-bounded'];

describe('the kind scorer where no rule has a cue', () => {
  it.each([
    ['- Someone to cover the Sunday till, anyone', 'task'],
    ['- new brake pads before the ride', 'task'],
  ])('%s → %s (the rules alone said fact)', (line, kind) => {
    expect(classifyByRules(line, NOTE_DAY).kind).toBe('fact');
    expect(kindOf(line)).toBe(kind);
    expect(classifyEntry(line, NOTE_DAY).cue).toMatch(/the kind scorer/);
  });

  it.each([
    '- anyone seen the spare projector cable',
    '- the leak might be the seal, to confirm',
    '- perhaps the leak comes from the seal',
  ])('keeps a question or a guess to check out of the promotable kinds: %s', (line) => {
    expect(classifyByRules(line, NOTE_DAY).kind).toBe('fact');
    expect(NEVER_PROMOTED).toContain(kindOf(line));
  });

  it.each([
    '- We always ask Ingrid before restarting the build server.',
    '- Questions about rotas go to Hanne.',
    '- Check-in for the conference opens at 8.',
    '- The choir sings in the crypt on Sundays.',
  ])('leaves a durable line that looks like a task or a question a fact: %s', (line) => expect(kindOf(line)).toBe('fact'));

  it('gives way to a kind annotation', () => {
    expect(kindOf('- Someone to cover the Sunday till, anyone <!-- kind: fact -->')).toBe('fact');
  });

  it.each([
    '- 会議室の鍵は受付にあります。',
    '- مفتاح المخزن عند سارة',
    '- Ключ от кладовки у Ольги.',
    '- 연습은 목요일에 합니다',
  ])('does not read other scripts (the kind falls back to fact): %s', (line) => {
    expect(scoreKind(line)).toBeNull();
    expect(kindOf(line)).toBe('fact');
  });

  it('falls back to fact on a Latin-script line in another language', () => {
    expect(kindOf('- La clé du local est chez Marie.')).toBe('fact');
  });

  it('is deterministic: the same line, the same probabilities and kind', () => {
    const line = '- the grant report still to be chased';
    const first = scoreKind(line)!;
    const second = scoreKind(line)!;
    expect([...second.probabilities]).toEqual([...first.probabilities]);
    expect(kindFeatures(line)).toEqual(kindFeatures(line));
    expect(classifyEntry(line, NOTE_DAY)).toEqual(classifyEntry(line, NOTE_DAY));
  });

  it('carries a well-formed committed model: one weight per kind for every feature, thresholds in range', () => {
    const model = JSON.parse(KIND_SCORER_MODEL_JSON) as KindScorerModel;
    expect(model.classes).toHaveLength(8);
    expect(model.bias).toHaveLength(8);
    for (const [feature, w] of Object.entries(model.weights)) {
      expect(w, feature).toHaveLength(8);
      for (const v of w) expect(Number.isFinite(v), feature).toBe(true);
    }
    expect(model.fallbackAt).toBeGreaterThanOrEqual(0.5);
    expect(model.vetoAt).toBeGreaterThanOrEqual(0.5);
  });
});

describe('how the scorer overrules the rules', () => {
  // A two-feature model written here, so the combination is tested apart from what training produced.
  const model: KindScorerModel = {
    classes: ['fact', 'preference', 'decision', 'procedure', 'event', 'task', 'question', 'time-bounded'],
    bias: [0, 0, 0, 0, 0, 0, 0, 0],
    weights: { 'w:zorp': [0, 0, 0, 0, 0, 6, 0, 0], 'w:blick': [0, 0, 0, 0, 6, 0, 0, 0], 'w:the': [0, 0, 0, 0, 0, 0, 0, 0] },
    vetoAt: 0.9,
    fallbackAt: 0.6,
    minKnownFeatures: 2,
  };

  it('vetoes a durable verdict the scorer reads as a never-promoted kind', () => {
    const score = scoreKind('- the zorp', model);
    expect(score?.best).toBe('task');
    expect(combineWithRules('decision', false, score, model)).toBe('task');
    expect(combineWithRules('task', false, score, model)).toBeNull();
  });

  it('names only a task or a question where the rules fell back', () => {
    expect(combineWithRules('fact', true, scoreKind('- the zorp', model), model)).toBe('task');
    const eventLike = scoreKind('- the blick', model);
    // Above the veto threshold an event still vetoes a durable verdict…
    expect(combineWithRules('fact', false, eventLike, model)).toBe('event');
    // …but with veto off, the fallback never names an event.
    expect(combineWithRules('fact', true, eventLike, { ...model, vetoAt: 2 })).toBeNull();
  });

  it('stays silent on a line with too few known words', () => {
    expect(scoreKind('- zorp', model)).toBeNull();
    expect(combineWithRules('fact', true, scoreKind('- zorp', model), model)).toBeNull();
  });
});

describe('the scorer reads the features kindFeatures lists', () => {
  const model = JSON.parse(KIND_SCORER_MODEL_JSON) as KindScorerModel;
  /** The logits as kindFeatures' list and the weights object give them, summed in list order. */
  function logitsFromList(line: string): number[] {
    const logits = [...model.bias];
    for (const f of kindFeatures(line)) {
      const w = model.weights[f];
      if (w) for (let k = 0; k < logits.length; k++) logits[k]! += w[k]!;
    }
    return logits;
  }

  it.each([
    '- [ ] ask the the landlord about the the boiler, then the boiler again?',
    '- Thursday mornings = my writing time -> don\'t book calls then',
    'Booked the ferry for 12/10 at 9:30, @Dana knows. Quotes still to be chased!',
    '- the grant report still to be chased',
  ])('to the same probabilities, bit for bit: %s', (line) => {
    const logits = logitsFromList(line);
    const top = Math.max(...logits);
    const exps = logits.map((v) => Math.exp(v - top));
    const sum = exps.reduce((a, b) => a + b, 0);
    const score = scoreKind(line, model)!;
    expect(score).not.toBeNull();
    expect([...score.probabilities.values()]).toEqual(exps.map((e) => e / sum));
  });
});
