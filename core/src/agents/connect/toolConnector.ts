import fs from 'node:fs';
import path from 'node:path';
import type Database from 'better-sqlite3';
import type { ConnectableTool, ConnectedFile, OperationOutput } from '../../contract/index.js';
import { replaceFileChecked } from '../../platform/checkedReplace.js';
import { ReverieError, errnoCode } from '../../platform/errors.js';
import { sha256Hex } from '../../platform/hash.js';
import { writeFileAtomically } from '../../platform/safeWrite.js';
import type { AgentRegistry } from '../agentRegistry.js';
import type { AgentLaunch } from '../mcp/mcpLaunch.js';
import { editConfig, parseConfig } from './configEdit.js';
import { configError, valueAt } from './configError.js';
import { configTargets, type ConfigTarget, type Launch, type TargetOptions } from './toolTargets.js';
import { readToolToken, toolTokenFile } from './toolTokens.js';
import { unifiedDiff } from './unifiedDiff.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/connect');

export interface ConnectorOptions {
  dataDir: string;
  registry: AgentRegistry;
  agentDb: Database.Database;
  /** How the tool starts `reverie mcp` and `reverie hook` for this workspace (agents/mcp/mcpLaunch.ts). */
  launch: AgentLaunch;
  env?: NodeJS.ProcessEnv;
  home?: string;
}

interface Planned {
  target: ConfigTarget;
  before: Buffer | null;
  text: string | null;
  next: string;
}

const NEW_TOKEN_PLACEHOLDER = '<new token, created on connect>';

/**
 * `reverie agents connect|disconnect <tool>`: the tool's own configuration files, edited
 * structurally (configEdit.ts). Every file is parsed and planned before any is written; each is
 * backed up, then replaced atomically if it still holds what was read. What was written is
 * recorded, so a disconnect can put back the exact earlier bytes while the file is unchanged.
 */
export class ToolConnector {
  constructor(private readonly options: ConnectorOptions) {}

  connect(tool: ConnectableTool, input: { scope: 'user' | 'project'; projectDir?: string; write: boolean; dryRun: boolean }): OperationOutput<'agents.connect'> {
    const targets = configTargets(tool, this.targetOptions(input));
    const notes: string[] = [];
    // Every file is read and parsed before anything happens: a broken one refuses the whole connect, token included.
    for (const target of targets) this.plan(target, (t) => t);
    const existing = readToolToken(this.options.dataDir, tool);
    const reusable = existing !== null && this.isLiveToken(existing, tool) ? existing : null;
    const token = reusable ?? (input.dryRun ? NEW_TOKEN_PLACEHOLDER : this.newToken(tool, input.write, notes));
    const [bin, hook, ...rest] = this.options.launch.hookArgs;
    const launch: Launch = { command: this.options.launch.command, args: this.options.launch.mcpArgs, token, hookWords: [bin!, hook!, '--tool', tool, ...rest], env: this.options.launch.env };
    const plans = targets.map((target) => this.plan(target, (t) => editConfig(target, t, target.connect(launch), tool)));
    const files = this.apply(tool, plans, input.dryRun, 'connect');
    if (tool === 'codex' && !input.dryRun) notes.push('Codex reads hooks.json only with `[features] hooks = true` in config.toml; Reverie added it unless you had set it.');
    return { tool, agent: tool, dryRun: input.dryRun, files, notes };
  }

  disconnect(tool: ConnectableTool, input: { scope: 'user' | 'project'; projectDir?: string; dryRun: boolean }): OperationOutput<'agents.disconnect'> {
    const targets = configTargets(tool, this.targetOptions(input));
    const files: ConnectedFile[] = [];
    const plans: Planned[] = [];
    for (const target of targets) {
      const record = this.record(tool, target.file);
      const current = readIfExists(target.file);
      if (current === null) {
        files.push({ path: target.file, action: 'missing', backup: null, diff: '' });
        continue;
      }
      if (record && sha256Hex(current) === record.after_sha) {
        // Untouched since connect: the exact earlier bytes come back (or the file goes, if Reverie created it).
        const earlier = record.existed ? readIfExists(record.backup ?? '') : null;
        if (record.existed && earlier === null) throw new ReverieError('not-found', `The backup ${record.backup} of ${target.file} is gone; run disconnect again after restoring it, or edit the file by hand.`);
        files.push({ path: target.file, action: 'restored', backup: record.backup, diff: unifiedDiff(target.file, current.toString('utf8'), earlier?.toString('utf8') ?? '') });
        if (!input.dryRun) this.restore(target.file, current, earlier);
        continue;
      }
      plans.push(this.plan(target, (t) => editConfig(target, t, target.disconnect(), tool), current));
    }
    files.push(...this.apply(tool, plans, input.dryRun, 'disconnect'));
    let revoked = false;
    if (!input.dryRun) {
      for (const file of targets.map((t) => t.file)) this.options.agentDb.prepare('DELETE FROM tool_connections WHERE tool = ? AND file = ?').run(tool, file);
      const stillConnected = (this.options.agentDb.prepare('SELECT count(*) AS n FROM tool_connections WHERE tool = ?').get(tool) as { n: number }).n > 0;
      if (!stillConnected) {
        revoked = this.options.registry.list().some((a) => a.name === tool && a.revokedAt === null);
        if (revoked) this.options.registry.revoke(tool);
        fs.rmSync(toolTokenFile(this.options.dataDir, tool), { force: true });
      }
    }
    return { tool, dryRun: input.dryRun, files, revoked };
  }

  private targetOptions(input: { scope: 'user' | 'project'; projectDir?: string }): TargetOptions {
    if (input.scope === 'project' && !input.projectDir) throw new ReverieError('invalid-input', '--scope project needs the project folder (--project-dir DIR).');
    return { scope: input.scope, projectDir: input.projectDir, env: this.options.env, home: this.options.home };
  }

  private plan(target: ConfigTarget, edit: (text: string) => string, known?: Buffer): Planned {
    const before = known ?? readIfExists(target.file);
    const text = before === null ? null : decode(target.file, before);
    if (text !== null) parseConfig(target, text);
    return { target, before, text, next: edit(text ?? '') };
  }

  /** Writes every changed file (or, dry, only describes it); a failure puts back the files already written. */
  private apply(tool: string, plans: Planned[], dryRun: boolean, mode: 'connect' | 'disconnect'): ConnectedFile[] {
    const files: ConnectedFile[] = plans.map((p) => ({
      path: p.target.file,
      action: p.text === p.next ? 'unchanged' : p.before === null ? 'created' : mode === 'connect' ? 'changed' : 'removed',
      backup: null,
      diff: unifiedDiff(p.target.file, p.text, p.next),
    }));
    if (dryRun) return files;
    for (const p of plans) if (p.text !== p.next && p.before !== null) assertWritable(p.target.file);
    const written: Array<{ plan: Planned; backup: string | null }> = [];
    try {
      plans.forEach((p, i) => {
        if (p.text === p.next) return;
        const backup = p.before === null ? null : this.backup(tool, p.target.file, p.before);
        this.write(p);
        written.push({ plan: p, backup });
        files[i]!.backup = backup;
        if (mode === 'connect') {
          const earlier = this.record(tool, p.target.file);
          // A second connect over Reverie's own earlier edit keeps the first backup: disconnect goes back to before Reverie.
          const keep = earlier && earlier.after_sha === sha256Hex(p.before ?? Buffer.alloc(0)) ? earlier : null;
          this.options.agentDb
            .prepare('INSERT OR REPLACE INTO tool_connections (tool, file, agent, backup, after_sha, existed, at) VALUES (?, ?, ?, ?, ?, ?, ?)')
            .run(tool, p.target.file, tool, keep ? keep.backup : backup, sha256Hex(p.next), keep ? keep.existed : p.before === null ? 0 : 1, new Date().toISOString());
        }
      });
    } catch (error) {
      for (const { plan, backup } of written.reverse()) {
        try {
          if (backup) fs.copyFileSync(backup, plan.target.file);
          else fs.rmSync(plan.target.file, { force: true });
        } catch (undo) {
          throw new ReverieError('internal', `${(error as Error).message} Putting back ${plan.target.file} failed too (${(undo as Error).message}); its backup is ${backup ?? '(none: it did not exist)'}.`);
        }
      }
      throw error;
    }
    return files;
  }

  private write(p: Planned): void {
    fs.mkdirSync(path.dirname(p.target.file), { recursive: true });
    const mode = p.before === null ? 0o600 : fs.statSync(p.target.file).mode & 0o777;
    const result = replaceFileChecked({
      file: p.target.file,
      expectedSha256: p.before === null ? null : sha256Hex(p.before),
      next: Buffer.from(p.next, 'utf8'),
      lockFile: path.join(this.options.dataDir, 'locks', 'agent-config.lock'),
    });
    if (result.outcome !== 'written') throw new ReverieError('conflict', `${p.target.file}: ${result.reason} Run it again.`);
    fs.chmodSync(p.target.file, mode);
  }

  private restore(file: string, current: Buffer, earlier: Buffer | null): void {
    assertWritable(file);
    if (earlier === null) {
      fs.rmSync(file);
      return;
    }
    const result = replaceFileChecked({ file, expectedSha256: sha256Hex(current), next: earlier, lockFile: path.join(this.options.dataDir, 'locks', 'agent-config.lock') });
    if (result.outcome !== 'written') throw new ReverieError('conflict', `${file}: ${result.reason} Run it again.`);
  }

  private backup(tool: string, file: string, bytes: Buffer): string {
    const dir = path.join(this.options.dataDir, 'backups', 'agents', tool);
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stamp = new Date().toISOString().replace(/[:.]/g, '-');
    const backup = path.join(dir, `${path.basename(file)}.${stamp}.${sha256Hex(file).slice(0, 6)}.bak`);
    writeFileAtomically(backup, bytes);
    fs.chmodSync(backup, 0o600);
    return backup;
  }

  private record(tool: string, file: string): { backup: string | null; after_sha: string; existed: number } | undefined {
    return this.options.agentDb.prepare('SELECT backup, after_sha, existed FROM tool_connections WHERE tool = ? AND file = ?').get(tool, file) as { backup: string | null; after_sha: string; existed: number } | undefined;
  }

  private isLiveToken(token: string, tool: string): boolean {
    try {
      return this.options.registry.authenticate(token).name === tool;
    } catch (error) {
      log.debug('unknown or revoked: a new one is made', { error });
      return false;
    }
  }

  private newToken(tool: string, write: boolean, notes: string[]): string {
    const active = this.options.registry.list().find((a) => a.name === tool && a.revokedAt === null);
    if (active) {
      this.options.registry.revoke(tool);
      notes.push(`The earlier token of agent "${tool}" was revoked; the new one is in ${tool}'s configuration.`);
    }
    const { token } = this.options.registry.add(tool, write);
    const file = toolTokenFile(this.options.dataDir, tool);
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    writeFileAtomically(file, `${token}\n`);
    fs.chmodSync(file, 0o600);
    return token;
  }
}

/** The token in a parsed configuration (to show what a file holds). */
export function configuredToken(target: ConfigTarget, parsed: unknown): string | null {
  const value = target.tokenPath.length ? valueAt(parsed, target.tokenPath) : undefined;
  return typeof value === 'string' ? value : null;
}

function readIfExists(file: string): Buffer | null {
  if (!file) return null;
  try {
    return fs.readFileSync(file);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return null;
    throw configError(file, `cannot be read (${errnoCode(error) ?? (error as Error).message}).`);
  }
}

function decode(file: string, bytes: Buffer): string {
  const text = bytes.toString('utf8');
  if (Buffer.compare(Buffer.from(text, 'utf8'), bytes) !== 0) throw configError(file, 'is not UTF-8 text.');
  return text;
}

function assertWritable(file: string): void {
  // No write bit at all is the person saying "leave it" (root could write it anyway).
  const readOnly = (fs.statSync(file).mode & 0o222) === 0;
  try {
    if (!readOnly) fs.accessSync(file, fs.constants.W_OK);
  } catch (error) {
    log.debug('A configuration file is read-only', { file, error });
    throw configError(file, 'is read-only; make it writable (chmod u+w) or add Reverie by hand.');
  }
  if (readOnly) throw configError(file, 'is read-only; make it writable (chmod u+w) or add Reverie by hand.');
}
