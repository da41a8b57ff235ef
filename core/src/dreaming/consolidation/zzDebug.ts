import path from 'node:path';

import { runModelConsolidation } from './chatProcess.js';
import { writeAbortingGguf, writeLlamaChatGguf } from '../../../test/fixtures/gguf.js';
await (async () => {
  const input = { candidates: [{ candidateKey: 'a.md:1:1', path: 'a.md', startLine: 1, endLine: 1, text: 'The staging db port is 5433.', lineageKey: 'staging' }], memoryText: '# M\n\n- x y z\n', day: '2026-01-01', budgetChars: 10000 };
  const m = writeLlamaChatGguf(path.join('/tmp/cdbg', 'c.gguf'), { contextLength: 4096 });
  let t = Date.now();
  console.log(JSON.stringify(await runModelConsolidation({ modelPath: m, input, timeoutMs: 30000, maxTokens: 128 })), Date.now() - t);
  t = Date.now();
  console.log(JSON.stringify(await runModelConsolidation({ modelPath: m, input, timeoutMs: 30000 })).slice(0, 600), Date.now() - t);
  console.log(JSON.stringify(await runModelConsolidation({ modelPath: writeAbortingGguf('/tmp/cdbg/ab.gguf'), input, timeoutMs: 30000 })));
})();
