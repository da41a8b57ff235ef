/** Notes as a person handles them: new, daily, rename or move, delete to the trash and restore. */
import { z } from 'zod';
import { WorkspacePath } from '../vocabulary.js';
import type { OperationSpec } from './spec.js';

const Sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'expectedSha256 must be 64 hexadecimal characters');

/** A note in the workspace trash (`.reverie/trash/`), restorable to `path`. */
export const TrashedNote = z.object({
  id: z.string(),
  path: z.string(),
  trashedAt: z.string(),
  size: z.number().int(),
});
export type TrashedNote = z.infer<typeof TrashedNote>;

/** A line of another note with a `[[wiki-link]]` to the note asked about. */
export const Backlink = z.object({ path: z.string(), line: z.number().int().min(1), text: z.string() });
export type Backlink = z.infer<typeof Backlink>;

const CreatedNote = z.object({ path: z.string(), sha256: z.string(), created: z.boolean() });

export const noteOperations = {
  'notes.create': {
    access: 'write',
    summary: 'Create a new note under memory/ (refused when a note of that name exists).',
    input: z
      .object({
        /** As typed: "Tax module" or "tax-module.md"; no "/", no reserved characters, at most 120 characters. */
        name: z.string().max(1000),
        /** A folder under memory/ ("projects" or "memory/projects"); memory/ itself when left out. */
        folder: z.string().max(1000).optional(),
        /** The first text; a "# name" heading when left out. */
        text: z.string().max(1_000_000).optional(),
      })
      .strict(),
    output: CreatedNote,
  },
  'notes.daily': {
    access: 'write',
    summary: "Open today's daily note memory/YYYY-MM-DD.md, creating it when missing (never overwritten).",
    input: z.object({ date: z.string().max(20).optional() }).strict(),
    output: CreatedNote,
  },
  'notes.rename': {
    access: 'write',
    summary: 'Rename or move a note under memory/ (refused when the new name is taken).',
    input: z.object({ path: WorkspacePath, to: WorkspacePath }).strict(),
    output: z.object({ path: z.string() }),
  },
  'notes.trash': {
    access: 'write',
    summary: 'Delete a note: move it to the workspace trash, from where it can be restored.',
    input: z.object({ path: WorkspacePath, expectedSha256: Sha256.nullable().optional() }).strict(),
    output: TrashedNote,
  },
  'notes.restore': {
    access: 'write',
    summary: 'Put a trashed note back where it was (refused when a note of that name exists again).',
    input: z.object({ id: z.string().min(1).max(200) }).strict(),
    output: z.object({ path: z.string() }),
  },
  'notes.backlinks': {
    access: 'read',
    summary: 'The lines of other notes that link to this one with [[wiki-links]] ("Linked from").',
    input: z.object({ path: WorkspacePath }).strict(),
    output: z.object({ links: z.array(Backlink) }),
  },
  'notes.trashList': {
    access: 'read',
    summary: 'The notes in the workspace trash, newest first.',
    input: z.object({}).strict(),
    output: z.object({ notes: z.array(TrashedNote) }),
  },
} as const satisfies Record<string, OperationSpec>;
