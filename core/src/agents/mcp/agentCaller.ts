import type { AgentScope } from '../../contract/index.js';

/** The agent a token stands for, as the MCP server needs it: its name and what it may call. */
export interface CallerIdentity {
  name: string;
  scopes: AgentScope[];
}

/**
 * One way of running agent methods for `reverie mcp`: through the running host's socket, or
 * in this process when no host runs. Either way the call is authenticated, scoped, framed and logged.
 */
export interface AgentCaller {
  readonly route: 'socket' | 'in-process';
  readonly identity: CallerIdentity;
  call(method: string, params: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

/** A refusal or failure from the agent method itself (bad path, read-only token, …): shown to the agent as a tool error. */
export class AgentCallError extends Error {
  constructor(
    readonly code: number,
    message: string,
  ) {
    super(message);
    this.name = 'AgentCallError';
  }
}

/** The connection to the host went away: the call may be retried on a fresh route. */
export class RouteLostError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RouteLostError';
  }
}

/** The token is missing, unknown or revoked: `reverie mcp` cannot serve this agent at all. */
export class TokenRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TokenRefusedError';
  }
}
