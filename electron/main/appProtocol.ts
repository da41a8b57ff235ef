import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { net, protocol } from 'electron';
import { CONTENT_SECURITY_POLICY } from './windowSecurity.js';

/** Must run before the app is ready: `app://` behaves like a secure web origin. */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([{ scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } }]);
}

/** Serves the built renderer from `app://reverie/…` with the CSP header; nothing outside it. */
export function serveRenderer(rendererDir: string): void {
  const root = path.resolve(rendererDir);
  protocol.handle('app', async (request) => {
    const file = resolveRendererFile(root, request.url);
    if (!file) return new Response('Not found', { status: 404, headers: { 'Content-Security-Policy': CONTENT_SECURITY_POLICY } });
    const response = await net.fetch(pathToFileURL(file).href);
    const headers = new Headers(response.headers);
    headers.set('Content-Security-Policy', CONTENT_SECURITY_POLICY);
    headers.set('X-Content-Type-Options', 'nosniff');
    return new Response(response.body, { status: response.status, headers });
  });
}

export function resolveRendererFile(root: string, requestUrl: string): string | null {
  const url = new URL(requestUrl);
  if (url.host !== 'reverie') return null;
  let relative: string;
  try {
    relative = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
  } catch {
    return null;
  }
  const file = path.resolve(root, '.' + relative);
  if (!file.startsWith(root + path.sep)) return null;
  return fs.existsSync(file) && fs.statSync(file).isFile() ? file : null;
}
