import { operations, Settings, SettingsPatch } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { describeIssues } from '../../engine/invoke.js';
import { defineCommand } from '../command.js';
import { printJson } from '../output.js';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('cli/config');

const KEYS = Object.keys(Settings.shape) as Array<keyof Settings>;

export const configCommand = defineCommand({
  name: 'config',
  summary: 'Read and change settings (a value is parsed as JSON when it is JSON).',
  usage: [
    { line: 'config get [key] [--json]', summary: operations['settings.get'].summary },
    { line: 'config set <key> <value> [--json]', summary: 'Change one setting, or one key of a section (`dreaming.schedule 04:30`).' },
  ],
  flags: {},
  async run(ctx) {
    const [action, key, ...rest] = ctx.positionals;
    if (action === 'get') {
      const settings = ctx.settings.read();
      if (key === undefined) {
        if (ctx.json) printJson(settings);
        else for (const k of KEYS) process.stdout.write(`${k} = ${JSON.stringify(settings[k])}\n`);
        return 0;
      }
      const k = checkKey(key);
      if (ctx.json) printJson(settings[k]);
      else process.stdout.write(`${typeof settings[k] === 'string' ? settings[k] : JSON.stringify(settings[k])}\n`);
      return 0;
    }
    if (action === 'set') {
      if (key === undefined || rest.length === 0) throw new ReverieError('invalid-input', 'Usage: reverie config set <key> <value>');
      // `dreaming.schedule 04:30` sets one key of a section; `dreaming '{…}'` merges several.
      const [section, subKey] = key.split('.', 2) as [string, string | undefined];
      const k = checkKey(section);
      const raw = rest.join(' ');
      const value = parseValue(raw);
      const given = subKey !== undefined ? { [subKey]: value } : k === 'workspace' && typeof value !== 'string' ? raw : value;
      const patch = SettingsPatch.safeParse({ [k]: given });
      if (!patch.success) throw new ReverieError('invalid-input', describeIssues('config set', patch.error));
      const next = ctx.settings.update(patch.data);
      if (ctx.json) printJson(next);
      else process.stdout.write(`${k} = ${JSON.stringify(next[k])}\n`);
      return 0;
    }
    throw new ReverieError('invalid-input', ctx.usage);
  },
});

function checkKey(key: string): keyof Settings {
  if ((KEYS as string[]).includes(key)) return key as keyof Settings;
  throw new ReverieError('invalid-input', `Unknown setting "${key}". Settings: ${KEYS.join(', ')}.`);
}

function parseValue(raw: string): unknown {
  try {
    return JSON.parse(raw);
  } catch (error) {
    // Not JSON: the value is the text itself (`config set workspace ~/notes`).
    log.debug('A config value is plain text', { error });
    return raw;
  }
}
