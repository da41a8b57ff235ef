import type Database from 'better-sqlite3';
import type { HandlersFor } from '../contract/index.js';
import { forget } from './forget.js';
import { getProvenance, parseProvenanceRef, type StoredKindsReader } from './provenanceQuery.js';

export interface ProvenanceServiceOptions {
  /** The index database (reopened after corruption, hence a getter). */
  indexDb: () => Database.Database;
  /** `forget` removed entries from the index (and these files from the file list). */
  onDidForget(removedFiles: string[]): void;
  /** Reads the kinds the index stored (the index layer's table, above this one); without it, a chain lists none. */
  storedKinds?: StoredKindsReader;
}

/** `provenance.get` (where a result or line came from) and `forget` (a session or a file, out of the index for good). */
export class ProvenanceService {
  readonly handlers: HandlersFor<'provenance.get' | 'forget'>;

  constructor(options: ProvenanceServiceOptions) {
    const db = () => options.indexDb();
    this.handlers = {
      'provenance.get': async ({ ref }) => getProvenance(db(), parseProvenanceRef(db(), ref), options.storedKinds),
      forget: async ({ session, path: p, dryRun }) => {
        const report = forget(db(), { session, path: p }, dryRun);
        if (!dryRun) options.onDidForget(report.removed.files);
        return report;
      },
    };
  }
}
