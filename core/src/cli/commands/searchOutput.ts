import type { SearchResult } from '../../contract/index.js';

/** `reverie search` without --json; loads nothing heavy, as the thin path (no engine) prints it too. */
export function printResults(results: SearchResult[]): void {
  if (results.length === 0) {
    process.stdout.write('No results.\n');
    return;
  }
  for (const r of results) {
    const kinds = [...new Set((r.entryKinds ?? []).map((k) => k.kind))];
    process.stdout.write(`${r.path}:${r.startLine}-${r.endLine}  (score ${r.score.toFixed(2)}${r.source === 'memory' ? '' : `, ${r.source}`}${kinds.length > 0 ? `; ${kinds.join(', ')}` : ''})\n`);
    process.stdout.write(r.snippet.split('\n').map((l) => `    ${l}`).join('\n') + '\n');
    for (const place of r.alsoIn ?? []) process.stdout.write(`    also in ${place.path}:${place.startLine}-${place.endLine}\n`);
    process.stdout.write('\n');
  }
}
