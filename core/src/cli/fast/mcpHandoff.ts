/**
 * What the thin `reverie mcp` (mcpFast.ts) hands to the full one when the host it piped to goes
 * away mid-session: the client's handshake, replayed to the in-process server, and the requests
 * the host left unanswered, so the client's session goes on without noticing.
 */
export interface McpHandoff {
  /** `initialize` and `notifications/initialized`: replayed, their answers not sent again. */
  handshake: unknown[];
  /** Requests the host had not answered when it went: sent again, answered by this process. */
  pending: unknown[];
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
