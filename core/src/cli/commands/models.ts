import { ModelRole } from '../../contract/index.js';
import { ReverieError } from '../../platform/errors.js';
import { describeProgress } from '../../models/downloadProgress.js';
import { openService, type CliContext } from '../context.js';
import { info, printJson } from '../output.js';

const USAGE = 'Usage: reverie models list | pull <uri-or-path> [--role embedding|chat] | add <path> | use <model> [--role …] | remove <model>';

/** `reverie models list|pull|add|use|remove`: the model files in the data folder, by role. */
export async function modelsCommand(ctx: CliContext): Promise<number> {
  const [action, given] = ctx.positionals;
  const role = ctx.options.role === undefined ? undefined : ModelRole.safeParse(ctx.options.role);
  if (role && !role.success) throw new ReverieError('invalid-input', `--role must be embedding or chat (got "${ctx.options.role}").`);
  if (!action || !['list', 'pull', 'add', 'use', 'remove'].includes(action)) throw new ReverieError('invalid-input', USAGE);
  const target = given ?? '';
  if (action !== 'list' && !target) throw new ReverieError('invalid-input', USAGE);

  const service = await openService(ctx);
  const isTty = Boolean(process.stderr.isTTY) && !ctx.options.json;
  const unsubscribe = service.onDidEmitEvent((e) => {
    if (e.type === 'model-download' && !ctx.options.json) {
      const line = describeProgress({ bytes: e.bytes, total: e.total, rate: e.rate, etaSeconds: e.etaSeconds });
      process.stderr.write(isTty ? `\r\x1b[2K${line}` : `${line}\n`);
      if (e.done && isTty) process.stderr.write('\n');
    } else if (e.type === 'index-progress' && e.phase === 'embed' && !ctx.options.json && isTty) {
      process.stderr.write(`\r\x1b[2KEmbedding ${e.done}/${e.total}`);
    }
  });
  const abort = (): void => {
    info('\nStopping; the partial download is kept and the next pull resumes it.');
    void service.close().finally(() => process.exit(130));
  };
  process.once('SIGINT', abort);
  try {
    const r = role?.data;
    switch (action) {
      case 'list': {
        const list = await service.invoke('models.list', {});
        if (ctx.options.json) printJson(list);
        else if (list.models.length === 0) process.stdout.write(`No models installed; search uses the built-in hash embeddings.\nInstall the default: reverie models pull ${list.defaultEmbeddingUri}\n`);
        else for (const m of list.models) process.stdout.write(`${m.active ? '*' : ' '} ${m.role.padEnd(9)} ${m.file}  ${(m.size / 1e6).toFixed(1)} MB  ${m.id}  (${m.source})\n`);
        return 0;
      }
      case 'pull':
      case 'add': {
        const model = await service.invoke('models.pull', { uri: target, ...(r ? { role: r } : {}) });
        if (ctx.options.json) printJson(model);
        else process.stdout.write(`Installed ${model.file} (${model.role}${model.active ? ', active' : ''}) as ${model.id}.\n`);
        if (model.active && model.role === 'embedding') await service.switchEmbeddingProvider();
        return 0;
      }
      case 'use': {
        const result = await service.invoke('models.use', { model: target, ...(r ? { role: r } : {}) });
        await service.switchEmbeddingProvider();
        if (ctx.options.json) printJson(result);
        else process.stdout.write(`Active models: ${JSON.stringify(result.active)}\n`);
        return 0;
      }
      case 'remove': {
        const result = await service.invoke('models.remove', { model: target });
        if (ctx.options.json) printJson(result);
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
}
