import { describe, expect, it } from 'vitest';
import { askedTargets, foldNames, labelProblems, loadFold, recallTargets, type Fold } from '../bench/curation/folds.js';

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

  it.each(names)('fold %s: use.json asks about 75 to 92 percent of the recall targets 3 times on 2 days of a sweep week (not every fact)', (name) => {
    const fold = loadFold(name);
    const targets = recallTargets(fold);
    const asked = askedTargets(fold);
    const share = asked.length / targets.length;
    console.log(`${name}: ${asked.length}/${targets.length} recall targets asked 3q2d (${(share * 100).toFixed(1)} %); not asked: ${targets.filter((t) => !asked.includes(t)).map((t) => t.id).join(', ')}`);
    expect(share).toBeGreaterThanOrEqual(0.75);
    expect(share).toBeLessThanOrEqual(0.92);
  });

  it.each(names)('fold %s: no never entry is asked about by more than two queries in a sweep week', (name) => {
    const fold = loadFold(name);
    const overAsked = fold.labels.filter((l) => l.verdict === 'never' && askedTargets({ ...fold, labels: fold.labels.map((x) => (x.id === l.id ? { ...x, verdict: 'promote', target: 'MEMORY.md', why: undefined } : x)) }).some((a) => a.id === l.id));
    expect(overAsked.map((l) => l.id)).toEqual([]);
  });

  it('reports a query without an asks entry and an asks entry naming an unknown id', () => {
    const fold = loadFold(names[0]!);
    const broken: Fold = { ...fold, use: { ...fold.use, searches: { ...fold.use.searches, '2099-01-01': ['>nobody labelled this'] }, asks: { ...fold.use.asks, 'ghost query': ['x-nobody'] } } };
    const problems = labelProblems(broken).join('\n');
    expect(problems).toContain('the query "nobody labelled this" of 2099-01-01 has no asks entry');
    expect(problems).toContain('asks "ghost query" names unknown id "x-nobody"');
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
