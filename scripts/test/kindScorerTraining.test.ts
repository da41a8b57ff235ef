import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { loadFold } from '../bench/curation/folds.js';
import { loadKindLines } from '../bench/kinds/lines.js';
import { fitWeights, modelSource, trainingLines, trainKindScorer } from '../bench/kinds/trainScorer.js';

describe('training the kind scorer', () => {
  const lines = trainingLines();

  it('learns from the tune halves (English lines) and the curation tuning folds only', () => {
    const byText = new Map(loadKindLines().map((l) => [l.text, l]));
    const tuningNotes = ['backend', 'datasci'].flatMap((name) => [...loadFold(name).files.values()]).join('\n');
    expect(lines.length).toBeGreaterThan(300);
    let fromFolds = 0;
    for (const line of lines) {
      const kindLine = byText.get(line.text);
      if (kindLine) {
        expect(kindLine.half, line.text).toBe('tune');
        expect(kindLine.lang, line.text).toBeNull();
      } else {
        expect(tuningNotes.includes(line.text), line.text).toBe(true);
        fromFolds++;
      }
    }
    expect(fromFolds).toBeGreaterThan(30);
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
