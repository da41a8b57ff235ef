import { configError, isDeepEqual, valueAt, withValueAt } from './configError.js';
import { appendJsonValue, parseJsonConfig, removeJsonValue, setJsonValue } from './jsonConfig.js';
import { addTomlKey, parseTomlConfig, removeTomlTable, setTomlTable, tomlString } from './tomlConfig.js';
import { isReverieHookGroup, type ConfigOp, type ConfigTarget } from './toolTargets.js';
import { parseYamlConfig, removeYamlChild, setYamlChild, yamlString } from './yamlConfig.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('agents/connect');

export function parseConfig(target: ConfigTarget, text: string): Record<string, unknown> {
  if (target.format === 'toml') return parseTomlConfig(target.file, text);
  if (target.format === 'yaml') return parseYamlConfig(target.file, text);
  return parseJsonConfig(target.file, text);
}

/**
 * Applies `ops` to a configuration file's text, touching only Reverie's entries, then proves
 * it: the result re-parsed must equal the old file's value with exactly those changes. A file
 * whose layout the line edits cannot handle is refused with the reason, never written wrong.
 */
export function editConfig(target: ConfigTarget, text: string, ops: readonly ConfigOp[], tool: string): string {
  const before = parseConfig(target, text);
  let next = text;
  let expected: Record<string, unknown> = before;
  for (const op of ops) {
    const wanted = applyToValue(expected, op, tool);
    // Already so (connecting twice): the text is left exactly as it is.
    if (isDeepEqual(wanted, expected)) continue;
    next = applyToText(target, next, op, tool);
    expected = wanted;
  }
  if (next === text) return text;
  let after: Record<string, unknown>;
  try {
    after = parseConfig(target, next);
  } catch (error) {
    log.debug('An edited configuration would not parse', { file: target.file, error });
    throw configError(target.file, 'has a layout Reverie cannot edit line by line (the edited file would not parse).');
  }
  if (!isDeepEqual(after, expected)) throw configError(target.file, "has a layout Reverie cannot edit line by line (the edit would change more than Reverie's entries).");
  return next;
}

function applyToValue(root: Record<string, unknown>, op: ConfigOp, tool: string): Record<string, unknown> {
  switch (op.kind) {
    case 'set':
      return withValueAt(root, op.path, op.value);
    case 'unset':
      return valueAt(root, op.path) === undefined ? root : withValueAt(root, op.path, undefined);
    case 'flag':
      return valueAt(root, [op.table, op.key]) === undefined ? withValueAt(root, [op.table, op.key], true) : root;
    case 'hook': {
      const list = valueAt(root, ['hooks', op.event]);
      const kept = Array.isArray(list) ? list.filter((g) => !isReverieHookGroup(g, tool)) : [];
      if (op.group === null) return Array.isArray(list) && kept.length !== list.length ? withValueAt(root, ['hooks', op.event], kept) : root;
      return withValueAt(root, ['hooks', op.event], [...kept, op.group]);
    }
  }
}

function applyToText(target: ConfigTarget, text: string, op: ConfigOp, tool: string): string {
  if (target.format === 'toml') return tomlOp(text, op);
  if (target.format === 'yaml') return yamlOp(text, op);
  return jsonOp(text, op, tool);
}

function jsonOp(text: string, op: ConfigOp, tool: string): string {
  switch (op.kind) {
    case 'set':
      return setJsonValue(text, op.path, op.value);
    case 'unset':
      return removeJsonValue(text, op.path);
    case 'flag':
      throw new Error('flags are TOML only');
    case 'hook': {
      let next = text;
      // Remove Reverie's earlier groups from the end, so indexes stay right.
      const list = valueAt(parseJsonConfig('', next), ['hooks', op.event]);
      if (Array.isArray(list)) for (let i = list.length - 1; i >= 0; i--) if (isReverieHookGroup(list[i], tool)) next = removeJsonValue(next, ['hooks', op.event, i]);
      return op.group === null ? next : appendJsonValue(next, ['hooks', op.event], op.group);
    }
  }
}

function tomlOp(text: string, op: ConfigOp): string {
  switch (op.kind) {
    case 'set':
      return setTomlTable(text, op.path.join('.'), tomlTableBody(op.path.join('.'), op.value));
    case 'unset':
      return removeTomlTable(text, op.path.join('.'));
    case 'flag':
      return valueAt(parseTomlConfig('', text), [op.table, op.key]) === undefined ? addTomlKey(text, op.table, op.key, 'true') : text;
    case 'hook':
      throw new Error('hook lists are JSON only');
  }
}

function yamlOp(text: string, op: ConfigOp): string {
  if (op.kind !== 'set' && op.kind !== 'unset') throw new Error(`${op.kind} is not supported in YAML`);
  if (op.path.length !== 2) throw new Error('YAML edits are one level deep');
  const [parent, child] = op.path as [string, string];
  if (op.kind === 'unset') return removeYamlChild(text, parent, child);
  return setYamlChild(text, parent, yamlBlock(child, op.value));
}

/** `[a.b]` with plain keys; arrays of strings and one level of inline tables (env) as TOML writes them. */
function tomlTableBody(table: string, value: Record<string, unknown>): string {
  const lines = [`[${table}]`];
  for (const [key, v] of Object.entries(value)) lines.push(`${key} = ${tomlValue(v)}`);
  return lines.join('\n');
}

function tomlValue(v: unknown): string {
  if (typeof v === 'string') return tomlString(v);
  if (typeof v === 'number' || typeof v === 'boolean') return String(v);
  if (Array.isArray(v)) return `[${v.map(tomlValue).join(', ')}]`;
  if (typeof v === 'object' && v !== null) return `{ ${Object.entries(v).map(([k, x]) => `${/^[A-Za-z0-9_-]+$/.test(k) ? k : tomlString(k)} = ${tomlValue(x)}`).join(', ')} }`;
  throw new Error(`Cannot write ${typeof v} as TOML`);
}

/** `child:` and its keys in block style, two spaces a level (re-indented to the file's own step). */
function yamlBlock(child: string, value: Record<string, unknown>): string {
  const lines = [`${child}:`];
  for (const [key, v] of Object.entries(value)) {
    if (Array.isArray(v)) lines.push(`  ${key}: [${v.map((x) => yamlString(String(x))).join(', ')}]`);
    else if (typeof v === 'object' && v !== null) {
      lines.push(`  ${key}:`);
      for (const [k, x] of Object.entries(v)) lines.push(`    ${k}: ${yamlString(String(x))}`);
    } else lines.push(`  ${key}: ${typeof v === 'string' ? yamlString(v) : String(v)}`);
  }
  return lines.join('\n');
}
