import type { HandlersFor } from '../contract/index.js';
import { findBacklinks } from './backlinks.js';
import { WorkspaceNotes } from '../workspace/notes/workspaceNotes.js';
import type { WorkspaceFiles } from '../workspace/workspaceFiles.js';
import type { IndexService } from './indexService.js';

/** `notes.*`: each change is announced (`files-changed`) and indexed at once, like an editor save. */
export class NotesService {
  readonly handlers: HandlersFor<'notes.create' | 'notes.daily' | 'notes.rename' | 'notes.trash' | 'notes.restore' | 'notes.trashList' | 'notes.backlinks'>;

  constructor(files: WorkspaceFiles, index: IndexService, now?: () => number) {
    const notes = new WorkspaceNotes(files, now);
    this.handlers = {
      'notes.create': async (input) => {
        const created = notes.create(input);
        index.filesWritten([created.path]);
        return created;
      },
      'notes.daily': async (input) => {
        const note = notes.daily(input);
        if (note.created) index.filesWritten([note.path]);
        return note;
      },
      'notes.rename': async ({ path, to }) => {
        const renamed = notes.rename({ path, to });
        index.filesWritten([path, renamed.path]);
        return renamed;
      },
      'notes.trash': async (input) => {
        const trashed = notes.trash(input);
        index.filesWritten([trashed.path]);
        return trashed;
      },
      'notes.restore': async (input) => {
        const restored = notes.restore(input);
        index.filesWritten([restored.path]);
        return restored;
      },
      'notes.trashList': async () => ({ notes: notes.listTrash() }),
      'notes.backlinks': async ({ path }) => ({ links: findBacklinks(index.store, path) }),
    };
  }
}
