import type Database from 'better-sqlite3';
import { withChunkTexts } from '../index/chunkText.js';
import type { SearchResult } from '../contract/index.js';

/** How much an entry annotated with the asked-for project outranks an equal one without. */
export const PROJECT_BOOST = 1.25;

/**
 * `memory.search {project}`: results whose text carries `<!-- project: KEY -->` for that key
 * rank higher; nothing is filtered out (a project's context is more than its tagged lines).
 */
export function boostProject(db: Database.Database, results: SearchResult[], project: string): SearchResult[] {
  if (results.length === 0) return results;
  const ids = results.map((r) => Number(r.id.slice('chunk:'.length)));
  const texts = new Map(
    withChunkTexts(db.prepare<[string], { id: number; text: string }>('SELECT id, text FROM chunks WHERE id IN (SELECT value FROM json_each(?))')).all(JSON.stringify(ids)).map((r) => [r.id, r.text]),
  );
  const wanted = project.trim().toLowerCase();
  const tagged = (text: string) => [...text.matchAll(/<!--\s*project:\s*([^>]*?)\s*-->/gi)].some((m) => m[1]!.toLowerCase() === wanted);
  return results
    .map((r) => (tagged(texts.get(Number(r.id.slice('chunk:'.length))) ?? '') ? { ...r, score: r.score * PROJECT_BOOST } : r))
    .sort((a, b) => b.score - a.score);
}
