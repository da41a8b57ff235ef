import { Writable } from 'node:stream';

/**
 * Reserves stdout for the MCP protocol: the returned stream writes to the real stdout, while
 * every other write to `process.stdout` (console.log in a library, a stray progress line) goes
 * to stderr, where it cannot corrupt the JSON-RPC stream.
 */
export function claimStdoutForProtocol(): Writable {
  const stdout = process.stdout;
  const writeToStdout = stdout.write.bind(stdout) as (chunk: unknown, callback: (error?: Error | null) => void) => boolean;
  stdout.write = process.stderr.write.bind(process.stderr) as typeof stdout.write;
  return new Writable({
    write(chunk: Buffer, _encoding, callback) {
      writeToStdout(chunk, (error) => callback(error ?? null));
    },
  });
}
