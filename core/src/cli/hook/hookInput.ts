/**
 * What a tool's hook sends on stdin (Claude Code's format, which Codex follows): one JSON object
 * with `hook_event_name`, `session_id`, `transcript_path`, `cwd`, and per event `prompt`
 * (UserPromptSubmit), `source` (SessionStart) or `trigger` (PreCompact).
 */
export interface HookInput {
  event: string | null;
  cwd: string | null;
  prompt: string | null;
  sessionId: string | null;
  transcriptPath: string | null;
}

/** Hook input larger than this is not read on (a prompt is matched on its first 20,000 characters anyway). */
export const MAX_HOOK_INPUT_BYTES = 16 * 1024 * 1024;

/** Reads stdin until it ends, it passes the size limit, or `timeoutMs` passes; never throws. */
export function readHookStdin(stdin: NodeJS.ReadableStream, timeoutMs: number): Promise<{ text: string; why: string | null }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (why: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      stdin.removeAllListeners('data');
      stdin.pause();
      resolve({ text: why ? '' : Buffer.concat(chunks).toString('utf8'), why });
    };
    const timer = setTimeout(() => finish(`stdin did not end within ${timeoutMs} ms`), timeoutMs);
    timer.unref();
    stdin.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_HOOK_INPUT_BYTES) finish(`stdin is larger than ${MAX_HOOK_INPUT_BYTES} bytes`);
      else chunks.push(chunk);
    });
    stdin.once('end', () => finish(null));
    stdin.once('error', (error: Error) => finish(`stdin could not be read (${error.message})`));
  });
}

export function parseHookInput(text: string): { input: HookInput | null; why: string | null } {
  if (text.trim() === '') return { input: null, why: 'stdin was empty' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { input: null, why: `stdin is not JSON (${(error as Error).message})` };
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { input: null, why: 'stdin is not a JSON object' };
  const o = value as Record<string, unknown>;
  const str = (key: string) => (typeof o[key] === 'string' && o[key] !== '' ? (o[key] as string) : null);
  return { input: { event: str('hook_event_name'), cwd: str('cwd'), prompt: str('prompt'), sessionId: str('session_id'), transcriptPath: str('transcript_path') }, why: null };
}
