/**
 * The operation table: every operation once, with its access, summary and schemas. Every
 * transport (HTTP, Electron IPC, the agent socket, MCP, the CLI) is generic over it.
 */
import type { z } from 'zod';
import { agentOperations } from './agentOperations.js';
import { dreamOperations } from './dreamOperations.js';
import { graphOperations } from './graphOperations.js';
import { logOperations } from './logOperations.js';
import { modelOperations } from './modelOperations.js';
import { noteOperations } from './noteOperations.js';
import { sourceOperations } from './sourceOperations.js';
import type { OperationSpec } from './spec.js';
import { workspaceOperations } from './workspaceOperations.js';

export type { OperationSpec } from './spec.js';
export { ConnectableTool } from './agentOperations.js';
export { Backlink, TrashedNote } from './noteOperations.js';

export const operations = {
  ...workspaceOperations,
  ...noteOperations,
  ...sourceOperations,
  ...modelOperations,
  ...dreamOperations,
  ...agentOperations,
  ...graphOperations,
  ...logOperations,
} as const satisfies Record<string, OperationSpec>;

export type OperationName = keyof typeof operations;
export type OperationInput<N extends OperationName> = z.input<(typeof operations)[N]['input']>;
export type ParsedInput<N extends OperationName> = z.output<(typeof operations)[N]['input']>;
export type OperationOutput<N extends OperationName> = z.output<(typeof operations)[N]['output']>;

export const operationNames = Object.keys(operations) as OperationName[];

export function isOperationName(name: string): name is OperationName {
  return Object.prototype.hasOwnProperty.call(operations, name);
}

/** Who is calling: recorded with recall signals (dreaming) and, for agents, in the access log. */
export interface CallContext {
  transport: 'ui' | 'cli' | 'agent' | 'mcp';
  /** The authenticated agent, for calls that came through the agent socket or MCP. */
  agent?: { id: string; name: string; scopes: ReadonlyArray<'read' | 'write'> };
}

/** One handler per operation: what a feature service offers the engine. */
export type OperationHandlers = {
  [N in OperationName]: (input: ParsedInput<N>, context: CallContext) => Promise<OperationOutput<N>>;
};

/** The handlers of some operations (a feature service's share of the table). */
export type HandlersFor<N extends OperationName> = Pick<OperationHandlers, N>;
