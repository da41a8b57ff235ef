import fs from 'node:fs';
import path from 'node:path';
import { processLogger } from '../../platform/log/processLog.js';

const log = processLogger('host/http');

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
  '.map': 'application/json',
};

/** Resolves a URL path to a file inside `root`, or null (never escapes the folder). */
export function resolveStaticFile(root: string, urlPath: string): { file: string; type: string } | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch (error) {
    // A malformed URL names no file: 404.
    log.debug('A requested URL path is malformed', { urlPath: urlPath.slice(0, 200), error });
    return null;
  }
  if (decoded.includes('\0')) return null;
  const relative = decoded === '/' ? 'index.html' : decoded.replace(/^\/+/, '');
  const file = path.resolve(root, relative);
  if (file !== root && !file.startsWith(root + path.sep)) return null;
  try {
    if (!fs.statSync(file).isFile()) return null;
  } catch (error) {
    log.debug('No such static file', { file, error });
    return null;
  }
  return { file, type: CONTENT_TYPES[path.extname(file)] ?? 'application/octet-stream' };
}
