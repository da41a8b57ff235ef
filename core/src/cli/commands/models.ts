import { ModelRole, operations } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { describeProgress } from '../../models/downloadProgress.js';
import { defineCommand } from '../command.js';
import { openService } from '../context.js';
import { info, printJson } from '../output.js';

/** `reverie models list|pull|add|use|remove`: the model files in the data folder, by role. */
export const modelsCommand = defineCommand({
  name: 'models',
  summary: 'The model files in the data folder, by role (embedding, chat).',
  usage: [
    { line: 'models list [--json]', summary: operations['models.list'].summary },
    { line: 'models pull <hf:…|https://…|path> [--role embedding|chat] [--json]', summary: operations['models.pull'].summary },
    { line: 'models add <path> [--role embedding|chat] [--json]', summary: 'Add a local .gguf file (the same as pull with a path).' },
    { line: 'models use <model> [--role embedding|chat] [--json]', summary: operations['models.use'].summary },
    { line: 'models remove <model> [--json]', summary: operations['models.remove'].summary },
  ],
  flags: {
    role: { type: 'string', choices: ModelRole.options, description: 'what the model is for (pull and add: default embedding; use: its installed role)' },
  },
  async run(ctx, flags) {
    const [action, given] = ctx.positionals;
    if (!action || !['list', 'pull', 'add', 'use', 'remove'].includes(action)) throw new ReverieError('invalid-input', ctx.usage);
    const target = given ?? '';
    if (action !== 'list' && !target) throw new ReverieError('invalid-input', ctx.usage);

    const service = await openService(ctx);
    const isTty = Boolean(process.stderr.isTTY) && !ctx.json;
    const unsubscribe = service.onDidEmitEvent((e) => {
      if (e.type === 'model-download' && !ctx.json) {
        const line = describeProgress({ bytes: e.bytes, total: e.total, rate: e.rate, etaSeconds: e.etaSeconds });
        process.stderr.write(isTty ? `\r\x1b[2K${line}` : `${line}\n`);
        if (e.done && isTty) process.stderr.write('\n');
      } else if (e.type === 'index-progress' && e.phase === 'embed' && !ctx.json && isTty) {
        process.stderr.write(`\r\x1b[2KEmbedding ${e.done}/${e.total}`);
      }
    });
    const abort = (): void => {
      info('\nStopping; the partial download is kept and the next pull resumes it.');
      void service.close().finally(() => process.exit(130));
    };
    process.once('SIGINT', abort);
    try {
      const r = flags.role;
      switch (action) {
        case 'list': {
          const list = await service.invoke('models.list', {});
          if (ctx.json) printJson(list);
          else if (list.models.length === 0) process.stdout.write(`No models installed; search uses the built-in hash embeddings.\nInstall the default: reverie models pull ${list.defaultEmbeddingUri}\n`);
          else for (const m of list.models) process.stdout.write(`${m.active ? '*' : ' '} ${m.role.padEnd(9)} ${m.file}  ${(m.size / 1e6).toFixed(1)} MB  ${m.id}  (${m.source})\n`);
          return 0;
        }
        case 'pull':
        case 'add': {
          const model = await service.invoke('models.pull', { uri: target, ...(r ? { role: r } : {}) });
          if (ctx.json) printJson(model);
          else process.stdout.write(`Installed ${model.file} (${model.role}${model.active ? ', active' : ''}) as ${model.id}.\n`);
          if (model.active && model.role === 'embedding') await service.switchEmbeddingProvider();
          return 0;
        }
        case 'use': {
          const result = await service.invoke('models.use', { model: target, ...(r ? { role: r } : {}) });
          await service.switchEmbeddingProvider();
          if (ctx.json) printJson(result);
          else process.stdout.write(`Active models: ${JSON.stringify(result.active)}\n`);
          return 0;
        }
        case 'remove': {
          const result = await service.invoke('models.remove', { model: target });
          if (ctx.json) printJson(result);
          else process.stdout.write(`Removed ${result.removed}.\n`);
          return 0;
        }
      }
      return 1;
    } finally {
      process.removeListener('SIGINT', abort);
      unsubscribe();
      await service.close();
    }
  },
});
