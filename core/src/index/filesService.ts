import type { HandlersFor } from '../contract/index.js';
import type { WorkspaceFiles } from '../workspace/workspaceFiles.js';
import type { IndexService } from './indexService.js';

/**
 * `files.*`: the memory files as the index covers them, and reading and saving one (a save is
 * indexed at once, or on resume when indexing is paused).
 */
export class FilesService {
  readonly handlers: HandlersFor<'files.list' | 'files.read' | 'files.write'>;

  constructor(files: WorkspaceFiles, index: IndexService) {
    this.handlers = {
      // Memory files only: transcripts are reached through search and provenance, not the file tree.
      'files.list': async () => ({ files: index.store.coverage().filter((f) => f.source !== 'sessions') }),
      'files.read': async ({ path: p }) => files.read(p),
      'files.write': async ({ path: p, text, expectedSha256 }) => {
        const written = files.write(p, text, expectedSha256);
        index.filesWritten([p]);
        return written;
      },
    };
  }
}
