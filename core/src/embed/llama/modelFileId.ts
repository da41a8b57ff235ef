import { createHash } from 'node:crypto';
import fs from 'node:fs';

/** A model file's identity for its embedding generation: the first 16 hex digits of its SHA-256. */
export async function modelFileId(filePath: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of fs.createReadStream(filePath)) hash.update(chunk as Buffer);
  return hash.digest('hex').slice(0, 16);
}
