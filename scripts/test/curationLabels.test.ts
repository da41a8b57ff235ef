import { describe, expect, it } from 'vitest';
import { foldNames, labelProblems, loadFold, type Fold } from '../bench/curation/folds.js';

describe('curation benchmark labels', () => {
  const names = foldNames();

  it('has at least three independent folds', () => {
    expect(names.length).toBeGreaterThanOrEqual(3);
  });

  it.each(names)('fold %s: every label finds its line exactly once and every referenced id exists', (name) => {
    const fold = loadFold(name);
    expect(fold.labels.length).toBeGreaterThan(40);
    expect(labelProblems(fold)).toEqual([]);
  });

  it.each(names)('fold %s: every non-blank entry line of a daily note carries a label', (name) => {
    const fold = loadFold(name);
    const unlabelled: string[] = [];
    for (const [file, text] of fold.files) {
      if (!file.startsWith('memory/')) continue;
      for (const line of text.split('\n')) {
        if (!/^\s*[-*] /.test(line)) continue;
        if (!fold.labels.some((l) => l.file === file && line.includes(l.match))) unlabelled.push(`${file}: ${line}`);
      }
    }
    expect(unlabelled).toEqual([]);
  });

  it('reports a substring that occurs twice, a missing one, an unknown reference and an entry that has not expired yet', () => {
    const fold = loadFold(names[0]!);
    const broken: Fold = {
      ...fold,
      files: new Map([...fold.files, ['memory/2099-01-01.md', `- ${fold.labels[0]!.match}\n`]]),
      labels: [
        ...fold.labels,
        { id: 'x-missing', file: 'memory/2099-01-01.md', match: 'no such line anywhere', verdict: 'never', why: 'trivia' },
        { id: 'x-ref', file: 'memory/2099-01-01.md', match: fold.labels[0]!.match, verdict: 'promote', target: 'MEMORY.md', supersedes: 'x-nobody' },
        { id: 'x-late', file: 'memory/2099-01-01.md', match: fold.labels[0]!.match, verdict: 'never', why: 'expired', validUntil: '2099-01-01' },
      ],
    };
    const problems = labelProblems(broken).join('\n');
    expect(problems).toContain(`"${fold.labels[0]!.id}": "${fold.labels[0]!.match}" occurs 2 times`);
    expect(problems).toContain('"x-missing": "no such line anywhere" occurs 0 times');
    expect(problems).toContain('supersedes names unknown id "x-nobody"');
    expect(problems).toContain('"x-late": an expired entry needs validUntil before the first sweep');
  });
});
