import fs from 'node:fs';
import readline from 'node:readline/promises';
import { ReverieError } from '../platform/errors.js';
import { openClawWorkspaceDir } from '../workspace/dataDir.js';
import { resolveExistingWorkspace, type ResolvedWorkspace } from '../workspace/resolveWorkspace.js';
import { createDefaultWorkspace } from '../workspace/workspaceChoice.js';
import type { SettingsStore } from '../workspace/settingsStore.js';

/**
 * Which workspace a command works on: --workspace / REVERIE_WORKSPACE, else the one chosen
 * at first run, else (first run) an existing OpenClaw workspace if the person accepts it at
 * a terminal, else a new ~/Reverie with starter files. Never prompts without a TTY.
 */
export async function chooseWorkspace(
  explicit: string | undefined,
  settings: SettingsStore,
  canPrompt: boolean,
): Promise<ResolvedWorkspace> {
  if (explicit) return resolveExistingWorkspace(explicit);
  const saved = settings.read().workspace;
  if (saved) {
    try {
      return resolveExistingWorkspace(saved);
    } catch (error) {
      throw new ReverieError(
        'workspace-missing',
        `The workspace chosen earlier, ${saved}, no longer exists. Restore it, pass --workspace DIR, or choose another with \`reverie config set workspace DIR\`.`,
        { cause: error },
      );
    }
  }
  const openClaw = openClawWorkspaceDir();
  if (canPrompt && fs.existsSync(openClaw) && (await confirm(`Found an OpenClaw workspace at ${openClaw}. Use it as your Reverie workspace? [Y/n] `))) {
    const chosen = resolveExistingWorkspace(openClaw);
    settings.update({ workspace: chosen.root });
    return chosen;
  }
  const created = createDefaultWorkspace(settings);
  process.stderr.write(`Created your Reverie workspace at ${created.root} (MEMORY.md, USER.md, memory/).\n`);
  return created;
}

async function confirm(question: string): Promise<boolean> {
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (await rl.question(question)).trim().toLowerCase();
    return answer === '' || answer === 'y' || answer === 'yes';
  } finally {
    rl.close();
  }
}
