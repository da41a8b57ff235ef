import type Database from 'better-sqlite3';
import { lineHash } from '../provenance/lineHash.js';
import type { ChunkHit } from './keywordSearch.js';

/** Imported memory is the person's other tools' files: their markers count (it is only ever proposed, never written, by dreaming). */
const IMPORTED = 'memory/imports/';

/**
 * The part of a chunk whose `<!-- importance -->` and `<!-- trigger -->` markers search honours:
 * the person's own lines. A transcript is conversation, never metadata; a line an agent (or
 * anything not the person) wrote into a note is left out, whatever it hid in a comment. Agents'
 * notes are stored with comments escaped already; this also covers lines stored before that.
 */
export class MarkerText {
  private readonly notOwnerLines: Database.Statement<[string], { line_hash: string }>;
  private cache = new Map<string, ReadonlySet<string>>();
  private cacheGeneration = -1;

  constructor(
    db: Database.Database,
    private readonly generation: () => number,
  ) {
    this.notOwnerLines = db.prepare("SELECT line_hash FROM line_provenance WHERE path = ? AND origin != 'owner'");
  }

  of(hit: Pick<ChunkHit, 'path' | 'source' | 'text'>): string {
    if (hit.source === 'sessions') return '';
    if (!hit.text.includes('<!--') || hit.path.startsWith(IMPORTED)) return hit.text;
    const notOwner = this.notOwnerHashes(hit.path);
    if (notOwner.size === 0) return hit.text;
    return hit.text
      .split('\n')
      .filter((line) => !notOwner.has(lineHash(line)))
      .join('\n');
  }

  /** Kept until the index changes: a search looks at tens of chunks from a few files. */
  private notOwnerHashes(path: string): ReadonlySet<string> {
    const generation = this.generation();
    if (generation !== this.cacheGeneration) {
      this.cache = new Map();
      this.cacheGeneration = generation;
    }
    let hashes = this.cache.get(path);
    if (!hashes) {
      hashes = new Set(this.notOwnerLines.all(path).map((r) => r.line_hash));
      this.cache.set(path, hashes);
    }
    return hashes;
  }
}
