import fs from 'node:fs';
import path from 'node:path';
import { agentTool, agentTools, DEFAULT_SETTINGS, Settings, type SettingsPatch } from '../contract/index.js';
import { errnoCode, ReverieError } from '../platform/errors.js';
import { writeFileAtomically } from '../platform/safeWrite.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('workspace/settings');

/** `<data-dir>/settings.json`: read leniently (unknown keys dropped), written atomically. */
export class SettingsStore {
  readonly file: string;

  constructor(readonly dataDir: string) {
    this.file = path.join(dataDir, 'settings.json');
  }

  /** The last file read, parsed and frozen: every search reads the settings, the file rarely changes. */
  private cached: { stamp: string; settings: Readonly<Settings> } | null = null;
  private static readonly defaults: Readonly<Settings> = deepFreeze(structuredClone(DEFAULT_SETTINGS));

  /** A copy of the settings: callers may change what they get; the file (edited by hand or by `update`) decides. */
  read(): Settings {
    return structuredClone(this.current()) as Settings;
  }

  /**
   * The settings as the file says now, shared and frozen (no copy: the hot paths, such as each
   * search, read them). The file is parsed again only when its inode, size or mtime changed.
   */
  current(): Readonly<Settings> {
    let stamp: string | null;
    try {
      stamp = this.stampOfFile();
    } catch (error) {
      log.warn('The settings file cannot be read; using the defaults', { file: this.file, error });
      return SettingsStore.defaults;
    }
    // No settings file yet is the normal first run (read on every call: not logged).
    if (stamp === null) return SettingsStore.defaults;
    if (this.cached?.stamp === stamp) return this.cached.settings;
    const settings = deepFreeze(this.parse());
    this.cached = { stamp, settings };
    return settings;
  }

  /** Null when there is no file: asked without throwing (every search asks; an error for ENOENT cost ~4 µs of its ~5). */
  private stampOfFile(): string | null {
    const stat = fs.statSync(this.file, { bigint: true, throwIfNoEntry: false });
    return stat ? `${stat.ino}:${stat.size}:${stat.mtimeNs}` : null;
  }

  private parse(): Settings {
    let raw: string;
    try {
      raw = fs.readFileSync(this.file, 'utf8');
    } catch (error) {
      // Removed between the stat and the read: the defaults, as above.
      if (errnoCode(error) !== 'ENOENT') log.warn('The settings file cannot be read; using the defaults', { file: this.file, error });
      return structuredClone(DEFAULT_SETTINGS);
    }
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch (error) {
      throw new ReverieError(
        'invalid-input',
        `${this.file} is not valid JSON (${(error as Error).message}). Fix or delete the file; Reverie will recreate it with defaults.`,
      );
    }
    const stored = (typeof json === 'object' && json ? json : {}) as Partial<Record<keyof Settings, unknown>>;
    if (typeof stored.sessions === 'object' && stored.sessions) stored.sessions = withToolIds(stored.sessions as Record<string, unknown>);
    // Sections added in later versions get their defaults key by key.
    const merged = Settings.safeParse(withSections(DEFAULT_SETTINGS, stored));
    if (!merged.success) {
      const issue = merged.error.issues[0];
      throw new ReverieError(
        'invalid-input',
        `${this.file}: setting "${issue?.path.join('.') ?? '?'}" is invalid (${issue?.message ?? 'unknown'}). Fix it with \`reverie config set\` or edit the file.`,
      );
    }
    return merged.data;
  }

  update(patch: SettingsPatch): Settings {
    const current = this.read();
    const next = Settings.parse(withSections(current, patch));
    fs.mkdirSync(this.dataDir, { recursive: true });
    writeFileAtomically(this.file, JSON.stringify(next, null, 2) + '\n');
    return next;
  }
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

/** Settings whose sections (sessions, dreaming, graph) merge key by key: a file from before a key existed, or a patch of one key, keeps the rest. */
function withSections(base: Settings, over: Partial<Record<keyof Settings, unknown>>): Record<string, unknown> {
  const section = <K extends 'sessions' | 'dreaming' | 'graph'>(key: K): Settings[K] => ({ ...base[key], ...(typeof over[key] === 'object' && over[key] ? over[key] : {}) }) as Settings[K];
  return { ...base, ...over, sessions: section('sessions'), dreaming: section('dreaming'), graph: section('graph') };
}

/** Files written before tools had one spelling keyed transcript homes by the CLI flag (`claude`): now by tool id. */
function withToolIds(sessions: Record<string, unknown>): Record<string, unknown> {
  const renamed: Record<string, unknown> = {};
  // Flag-named keys first, so a tool-id key (the newer spelling) wins when a file has both.
  for (const tool of agentTools()) if (tool.cliFlag in sessions) renamed[tool.id] = sessions[tool.cliFlag];
  // Keys of tools this version does not know are dropped, as unknown settings are.
  for (const [key, home] of Object.entries(sessions)) if (agentTool(key)) renamed[key] = home;
  return renamed;
}
