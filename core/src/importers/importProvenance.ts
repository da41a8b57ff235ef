import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import { recordWrittenLines } from '../provenance/recordWrites.js';
import type { ImportReport } from './types.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('importers');

/**
 * Imported files are memory an agent wrote: every line of a copied or replaced file gets
 * provenance `agent` with its import origin (tool, original path, collection, time), so the
 * index and the provenance chain never mistake it for the person's own words.
 */
export function recordImportProvenance(db: Database.Database, workspaceRoot: string, report: ImportReport): number {
  let files = 0;
  for (const item of report.items) {
    if ((item.action !== 'copied' && item.action !== 'replaced') || !item.destination) continue;
    let text: string;
    try {
      text = fs.readFileSync(path.join(workspaceRoot, ...item.destination.split('/')), 'utf8');
    } catch (error) {
      // Removed since the apply: nothing to attribute.
      log.debug('An imported file is gone before its provenance was recorded', { path: item.destination, error });
      continue;
    }
    recordWrittenLines(db, item.destination, text.split('\n'), {
      origin: 'agent',
      via: 'import',
      actor: item.tool,
      detail: JSON.stringify({ originalPath: item.sourcePath, collection: item.collection, importedAt: report.finishedAt, importId: report.id }),
    });
    files++;
  }
  return files;
}
