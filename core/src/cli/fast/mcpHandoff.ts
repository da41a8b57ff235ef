/**
 * What the thin `reverie mcp` (mcpFast.ts) hands to the full one when the host it piped to goes
 * away mid-session: the client's `initialize` request and `initialized` notification, replayed to
 * the in-process server so the client's session goes on without noticing.
 */
export interface McpHandoff {
  replay: unknown[];
}

let pending: McpHandoff | null = null;

export function handOff(handoff: McpHandoff): void {
  pending = handoff;
}

export function takeHandoff(): McpHandoff | null {
  const taken = pending;
  pending = null;
  return taken;
}
