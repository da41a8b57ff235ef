import os from 'node:os';
import path from 'node:path';
import { ReverieError } from '../platform/errors.js';
import { DEFAULT_HF_ENDPOINT } from './defaultModels.js';

/** Where a model comes from: a file on this machine, or a URL to download (an `hf:` URI resolves to one). */
export type ModelSource =
  | { kind: 'local'; path: string }
  | {
      kind: 'remote';
      /** Canonical form recorded in models.json: `hf:<user>/<repo>/<file>` or the URL. */
      uri: string;
      url: string;
      /** The file name the URL ends with, e.g. `embeddinggemma-300m-qat-Q8_0.gguf`. */
      fileName: string;
    };

const HF_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The `hf:` base URL: an explicit option, then `REVERIE_HF_ENDPOINT`, then huggingface.co. */
export function resolveHfEndpoint(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const chosen = explicit ?? (env.REVERIE_HF_ENDPOINT || DEFAULT_HF_ENDPOINT);
  let url: URL;
  try {
    url = new URL(chosen);
  } catch (error) {
    throw new ReverieError('invalid-input', `The Hugging Face endpoint "${chosen}" is not a URL (set REVERIE_HF_ENDPOINT to e.g. https://huggingface.co).`, { cause: error });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new ReverieError('invalid-input', `The Hugging Face endpoint "${chosen}" must be an http(s) URL.`);
  }
  return chosen.replace(/\/+$/, '');
}

/**
 * Parses what a person typed after `reverie models pull`: `hf:<user>/<repo>/<file.gguf>`,
 * `hf:<user>/<repo>:<file.gguf>`, an https URL, or a local path (`~` expanded).
 */
export function parseModelSource(input: string, options: { hfEndpoint?: string; cwd?: string } = {}): ModelSource {
  const text = input.trim();
  if (text.length === 0) throw new ReverieError('invalid-input', 'No model given: pass an hf: URI, an https URL or a path to a .gguf file.');
  if (/^hf:/i.test(text)) return parseHfUri(text, options.hfEndpoint ?? resolveHfEndpoint());
  if (/^https?:\/\//i.test(text)) return parseUrl(text);
  if (/^file:\/\//i.test(text)) return { kind: 'local', path: path.resolve(new URL(text).pathname) };
  // A Windows drive path (C:\models\x.gguf) looks like a URL scheme; everything else with a scheme is unsupported.
  if (/^[a-z][a-z0-9+.-]+:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) {
    throw new ReverieError('invalid-input', `Unsupported model URI "${text}": use hf:<user>/<repo>/<file.gguf>, an https:// URL, or a local path.`);
  }
  const expanded = text === '~' || text.startsWith('~/') || text.startsWith('~\\') ? path.join(os.homedir(), text.slice(1)) : text;
  return { kind: 'local', path: path.resolve(options.cwd ?? process.cwd(), expanded) };
}

export function parseHfUri(uri: string, endpoint: string): ModelSource & { kind: 'remote' } {
  const body = uri.slice(3);
  const usage = 'expected hf:<user>/<repo>/<file.gguf> (or hf:<user>/<repo>:<file.gguf>)';
  const colon = body.indexOf(':');
  const parts = body.split('/');
  const repoPart = colon >= 0 ? body.slice(0, colon) : parts.slice(0, 2).join('/');
  const filePath = colon >= 0 ? body.slice(colon + 1) : parts.slice(2).join('/');
  const names = repoPart.split('/');
  const [user, repo] = names;
  if (names.length !== 2 || !user || !repo || !HF_NAME.test(user) || !HF_NAME.test(repo)) {
    throw new ReverieError('invalid-input', `Invalid Hugging Face URI "${uri}": ${usage}.`);
  }
  if (!filePath) throw new ReverieError('invalid-input', `"${uri}" names a repository but no file: ${usage}.`);
  if (!/\.gguf$/i.test(filePath)) {
    // node-llama-cpp's `hf:user/repo:Q8_0` names a quantization; resolving it needs the Hub API, which Reverie does not call.
    throw new ReverieError('invalid-input', `"${uri}" does not name a .gguf file: ${usage}, with the exact file name from the repository's file list.`);
  }
  const segments = filePath.split('/');
  if (segments.some((s) => s === '' || s === '.' || s === '..' || /[\\\0]/.test(s))) {
    throw new ReverieError('invalid-input', `Invalid file path in "${uri}": ${usage}.`);
  }
  const encoded = segments.map(encodeURIComponent).join('/');
  return {
    kind: 'remote',
    uri: `hf:${user}/${repo}/${filePath}`,
    url: `${endpoint}/${user}/${repo}/resolve/main/${encoded}`,
    fileName: segments[segments.length - 1]!,
  };
}

function parseUrl(text: string): ModelSource & { kind: 'remote' } {
  let url: URL;
  try {
    url = new URL(text);
  } catch (error) {
    throw new ReverieError('invalid-input', `"${text}" is not a valid URL.`, { cause: error });
  }
  if (url.protocol === 'http:' && !LOOPBACK_HOSTS.has(url.hostname)) {
    // A model file is parsed by native code: never fetch one over a connection anyone on the path can rewrite.
    throw new ReverieError('invalid-input', `Refusing to download a model over plain http from ${url.host}: use an https:// URL.`);
  }
  // A Hub "blob" link is the HTML page about the file; "resolve" is the file itself.
  if (url.hostname === 'huggingface.co') url.pathname = url.pathname.replace(/^(\/[^/]+\/[^/]+)\/blob\//, '$1/resolve/');
  const last = decodeURIComponent(url.pathname.split('/').pop() ?? '');
  if (!/\.gguf$/i.test(last)) {
    throw new ReverieError('invalid-input', `"${text}" does not point to a .gguf file (the URL path must end in .gguf).`);
  }
  return { kind: 'remote', uri: url.toString(), url: url.toString(), fileName: last };
}
