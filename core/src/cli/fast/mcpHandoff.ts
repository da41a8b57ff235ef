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

/**
 * Kept on the global object, not in this module: the thin `reverie mcp` runs from a bundled copy
 * of this file (out/…/mcpFast.bundle.cjs) while the full command imports the module itself.
 */
const SLOT = Symbol.for('reverie.mcpHandoff');
const slots = globalThis as { [SLOT]?: McpHandoff | null };

export function handOff(handoff: McpHandoff): void {
  slots[SLOT] = handoff;
}

export function takeHandoff(): McpHandoff | null {
  const taken = slots[SLOT] ?? null;
  slots[SLOT] = null;
  return taken;
}
