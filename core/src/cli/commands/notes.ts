import { operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { printJson } from '../output.js';

const ACTIONS = ['new', 'daily', 'rename', 'delete', 'trash', 'restore', 'links'] as const;

/** `reverie notes new|daily|rename|delete|trash|restore|links`: the same note actions as the window. */
export const notesCommand = defineCommand({
  name: 'notes',
  summary: 'Create, rename, delete (to the trash) and restore notes; list the notes linking to one.',
  usage: [
    { line: 'notes new <name> [--folder <folder>] [--json]', summary: operations['notes.create'].summary },
    { line: 'notes daily [--date YYYY-MM-DD] [--json]', summary: operations['notes.daily'].summary },
    { line: 'notes rename <path> <new path> [--json]', summary: operations['notes.rename'].summary },
    { line: 'notes delete <path> [--json]', summary: operations['notes.trash'].summary },
    { line: 'notes trash [--json]', summary: operations['notes.trashList'].summary },
    { line: 'notes restore <trash id> [--json]', summary: operations['notes.restore'].summary },
    { line: 'notes links <path> [--json]', summary: operations['notes.backlinks'].summary },
  ],
  flags: {
    folder: { type: 'string', value: 'FOLDER', description: 'new: the folder under memory/ (default memory/ itself)' },
    date: { type: 'string', value: 'YYYY-MM-DD', description: "daily: that day's note instead of today's" },
  },
  async run(ctx, flags) {
    const [action, first, second] = ctx.positionals;
    if (!action || !(ACTIONS as readonly string[]).includes(action)) throw new ReverieError('invalid-input', ctx.usage);
    const needs = { new: 1, daily: 0, rename: 2, delete: 1, trash: 0, restore: 1, links: 1 }[action as (typeof ACTIONS)[number]];
    if ((needs >= 1 && !first) || (needs >= 2 && !second)) throw new ReverieError('invalid-input', ctx.usage);
    const out = (line: string): boolean => process.stdout.write(`${line}\n`);
    const service = await openService(ctx);
    try {
      switch (action) {
        case 'new': {
          const note = await service.invoke('notes.create', { name: first!, ...(flags.folder ? { folder: flags.folder } : {}) });
          if (ctx.json) printJson(note);
          else out(`Created ${note.path}`);
          break;
        }
        case 'daily': {
          const note = await service.invoke('notes.daily', flags.date ? { date: flags.date } : {});
          if (ctx.json) printJson(note);
          else out(note.created ? `Created ${note.path}` : `${note.path} already exists (left as it is)`);
          break;
        }
        case 'rename': {
          const renamed = await service.invoke('notes.rename', { path: first!, to: second! });
          if (ctx.json) printJson(renamed);
          else out(`Renamed ${first} to ${renamed.path}`);
          break;
        }
        case 'delete': {
          const trashed = await service.invoke('notes.trash', { path: first! });
          if (ctx.json) printJson(trashed);
          else out(`Moved ${trashed.path} to the trash. Undo: reverie notes restore ${trashed.id}`);
          break;
        }
        case 'trash': {
          const { notes } = await service.invoke('notes.trashList', {});
          if (ctx.json) printJson({ notes });
          else if (notes.length === 0) out('The trash is empty.');
          else for (const n of notes) out(`${n.id}  ${n.trashedAt}  ${n.path}`);
          break;
        }
        case 'restore': {
          const restored = await service.invoke('notes.restore', { id: first! });
          if (ctx.json) printJson(restored);
          else out(`Restored ${restored.path}`);
          break;
        }
        case 'links': {
          // Without a host keeping the index fresh, catch up first (a no-op sync is cheap).
          if (!service.lock.readHolder()) await service.invoke('index.sync', { force: false });
          const { links } = await service.invoke('notes.backlinks', { path: first! });
          if (ctx.json) printJson({ links });
          else if (links.length === 0) out(`No other note links to ${first} with [[…]].`);
          else for (const l of links) out(`${l.path}:${l.line}  ${l.text}`);
          break;
        }
      }
      return 0;
    } finally {
      await service.close();
    }
  },
});
