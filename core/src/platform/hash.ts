import type * as NodeCrypto from 'node:crypto';

// node:crypto is loaded on the first hash, not at import: `reverie hook` and the thin `reverie search`
// import the socket path (hashed on Windows only), and loading node:crypto is ~5 ms of CPU per start.
// process.getBuiltinModule (Node 20.16+, as package.json's engines require) is synchronous and needs no import.
let crypto: typeof NodeCrypto | null = null;

export function sha256Hex(data: string | Uint8Array): string {
  crypto ??= process.getBuiltinModule('node:crypto');
  // One call, no Hash object: most inputs are short (an entry, a line), where the object cost more than the hashing.
  return crypto.hash('sha256', data, 'hex');
}
