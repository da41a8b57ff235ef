import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FixtureWorkspace {
  root: string;
  dataDir: string;
  /** Absolute path of a workspace file given its workspace-relative path. */
  file(relative: string): string;
  remove(): void;
}

/** The path of the note whose bytes are not UTF-8 (must show as skipped). */
export const NON_UTF8_NOTE = 'memory/2026-02-14-legacy.md';

/** A note long enough to be chunked, with a distinctive word well below its first lines. */
export const LONG_NOTE = 'memory/2026-03-05.md';
export const LONG_NOTE_WORD = 'zephyrine';

const filler = (day: string): string =>
  Array.from({ length: 30 }, (_, i) => `- ${day} routine item ${i + 1}: tidied the desk, answered mail, walked the dog.`).join('\n');

/** Writes a small, realistic workspace and an empty data folder under the system temp dir. */
export function createFixtureWorkspace(): FixtureWorkspace {
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'reverie-e2e-'));
  const root = path.join(base, 'workspace');
  const dataDir = path.join(base, 'data');
  fs.mkdirSync(path.join(root, 'memory'), { recursive: true });
  fs.mkdirSync(dataDir, { recursive: true });

  const write = (relative: string, text: string): void => fs.writeFileSync(path.join(root, relative), text, 'utf8');

  write(
    'MEMORY.md',
    [
      '# Memory',
      '',
      '## Preferences',
      '- Coffee: oat-milk flat white, never before 8am.',
      '- Prefers written agendas before meetings.',
      '',
      '## Projects',
      '- **Quillfeather**: the bookbinding side project; next step is sourcing linen thread.',
      '- Garden: the quince tree needs pruning in late winter.',
      '',
    ].join('\n'),
  );
  write(
    'USER.md',
    ['# User', '', '- Name: Ada Marlowe', '- Lives in Porto; works remotely for a cartography studio.', '- Allergic to hazelnuts.', ''].join('\n'),
  );
  write(
    'memory/2026-03-02.md',
    ['# 2026-03-02', '', '- Spotted a grey heron at the river; named it Bartholomew.', '- Booked the ferry for the Douro trip.', ''].join('\n'),
  );
  write(
    LONG_NOTE,
    [
      '# 2026-03-05',
      '',
      filler('March 5'),
      '',
      '## Evening',
      `- Finally found the ${LONG_NOTE_WORD} telescope manual in the attic box.`,
      '- The eyepiece needs a new rubber cup; ordered one from the Lisbon shop.',
      '',
      filler('Late March 5'),
      '',
    ].join('\n'),
  );
  write(
    'memory/2026-03-09.md',
    ['# 2026-03-09', '', '- Drafted the Quillfeather stitching plan.', '- Called the plumber about the kitchen tap.', ''].join('\n'),
  );
  // "fo\xff\xfe\n": not valid UTF-8, so the index must skip it and say why.
  fs.writeFileSync(path.join(root, NON_UTF8_NOTE), Buffer.from([0x66, 0x6f, 0xff, 0xfe, 0x0a]));

  return {
    root,
    dataDir,
    file: (relative) => path.join(root, ...relative.split('/')),
    remove: () => fs.rmSync(base, { recursive: true, force: true }),
  };
}
