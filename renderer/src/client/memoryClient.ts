import { BridgeMemoryClient } from './bridgeClient.js';
import { HttpMemoryClient } from './httpClient.js';
import { takeLaunchToken } from './token.js';
import type { RendererMemoryClient } from './transport.js';

export type { RendererMemoryClient } from './transport.js';
export { MemoryClientError, errorMessage } from './clientError.js';

/** Electron's preload bridge when present, otherwise HTTP against `reverie serve`. */
export function createMemoryClient(): RendererMemoryClient {
  if (window.reverie) return new BridgeMemoryClient(window.reverie);
  return new HttpMemoryClient(takeLaunchToken());
}
