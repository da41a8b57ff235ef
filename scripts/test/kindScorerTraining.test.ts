import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadKindLines } from '../bench/kinds/lines.js';
import { fitWeights, modelSource, trainingLines, trainKindScorer } from '../bench/kinds/trainScorer.js';

describe('training the kind scorer', () => {
  const lines = trainingLines();

  it('learns from the tune halves only, English lines only', () => {
    const byText = new Map(loadKindLines().map((l) => [l.text, l]));
    expect(lines.length).toBeGreaterThan(300);
    for (const line of lines) {
      expect(byText.get(line.text)?.half).toBe('tune');
      expect(byText.get(line.text)?.lang).toBeNull();
    }
  });

  it('is deterministic: the same lines give the same weights', () => {
    const some = lines.slice(0, 120);
    expect(fitWeights(some, 0.003)).toEqual(fitWeights(some, 0.003));
  });

  it('the committed model is what training gives now (after changing the lines or the features, run npx tsx scripts/bench/kinds/trainScorer.ts)', () => {
    const committed = fs.readFileSync(new URL('../../core/src/workspace/kindScorerModel.ts', import.meta.url), 'utf8');
    expect(modelSource(trainKindScorer(lines).model) === committed).toBe(true);
  });
});
