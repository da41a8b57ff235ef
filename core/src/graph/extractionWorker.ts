import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { extractIndexedFile } from './extractionSteps.js';
import type { ExtractionReply, ExtractionRequest } from './extractionPool.js';

/**
 * A graph extraction thread: reads the files handed to it and extracts their entries by the
 * rules (pure functions of the text, so any thread gives the same entries); the engine thread
 * writes them in the files' order.
 */
const port = parentPort!;

port.on('message', ({ id, file, context }: ExtractionRequest) => {
  let text: string;
  try {
    text = fs.readFileSync(file.abs_path, 'utf8');
  } catch (error) {
    // Vanished since indexing: the next sync removes it from the index, and then from the graph. The engine thread logs it.
    port.postMessage({ id, text: null, unreadable: (error as Error).message ?? String(error) } satisfies ExtractionReply);
    return;
  }
  try {
    port.postMessage({ id, text, entriesJson: JSON.stringify(extractIndexedFile(file, text, context)) } satisfies ExtractionReply);
  } catch (error) {
    port.postMessage({ id, error: (error as Error).message ?? String(error) } satisfies ExtractionReply);
  }
});
