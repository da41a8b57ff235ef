import type { z } from 'zod';
import { ReverieError } from '../platform/errors.js';
import type { Logger } from '../platform/log/logger.js';
import { isOperationName, operations, type CallContext, type OperationHandlers, type OperationInput, type OperationName, type OperationOutput } from '../contract/index.js';

export type { CallContext, OperationHandlers } from '../contract/index.js';

/** The operations an engine answers: every one (MemoryService), or a few (ReadOnlySearch); another is "not available here". */
export type OperationTable = Partial<OperationHandlers>;

/**
 * Operations whose output the engine builds itself, field by field, on every agent's hot path:
 * checked against the contract by core/test/searchOutputContract.test.ts (real answers, parsed
 * strictly and compared whole) instead of on every call. Parsing `memory.search`'s answer
 * (its results and snippets copied) was ~25-40 µs a call, ~5 % of the engine thread's profile
 * under ten MCP agents. Inputs are always checked: they come from outside.
 */
const OUTPUT_CHECKED_BY_TESTS: ReadonlySet<OperationName> = new Set(['memory.search']);

/**
 * The one dispatch path every transport uses: validate input against the contract, run the
 * handler, validate the output (but see OUTPUT_CHECKED_BY_TESTS). A transport never calls a handler directly. The name and input
 * are whatever arrived (HTTP, IPC, the agent socket): this is the unchecked entry.
 */
export async function invokeOperation(handlers: OperationTable, name: string, rawInput: unknown, context: CallContext = { transport: 'cli' }): Promise<unknown> {
  if (!isOperationName(name)) throw new ReverieError('not-found', `Unknown operation "${name}".`);
  const spec = operations[name];
  const handler = handlers[name] as ((input: unknown, context: CallContext) => Promise<unknown>) | undefined;
  if (!handler) throw new ReverieError('not-found', `Operation "${name}" is not available here.`);
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) throw new ReverieError('invalid-input', describeIssues(name, parsed.error));
  const output = await handler(parsed.data, context);
  if (OUTPUT_CHECKED_BY_TESTS.has(name)) return output;
  const checked = spec.output.safeParse(output);
  if (!checked.success) throw new ReverieError('internal', `Operation ${name} produced invalid output: ${describeIssues(name, checked.error)}`);
  return checked.data;
}

/**
 * The same path for callers inside the engine that name the operation in code: the input is
 * typed by the contract and so is the result. The runtime checks stay (defaults are applied and
 * the handler's output is still validated, but see OUTPUT_CHECKED_BY_TESTS).
 */
export function invokeTypedOperation<N extends OperationName>(handlers: OperationTable, name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>> {
  // invokeOperation parsed the output with operations[name].output, whose z.output is
  // OperationOutput<N>; TypeScript cannot follow a generic index through safeParse.
  return invokeOperation(handlers, name, input, context) as Promise<OperationOutput<N>>;
}

export function describeIssues(name: string, error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : '(input)';
      return `${name}: field "${field}": ${issue.message}`;
    })
    .join('; ');
}

/** How the engine takes calls: both entries refuse while it closes and log failures. */
export interface OperationDispatch {
  typed<N extends OperationName>(name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>>;
  unchecked(name: string, input: unknown, context?: CallContext): Promise<unknown>;
}

export function operationDispatch(handlers: OperationTable, logger: Logger, isClosed: () => boolean): OperationDispatch {
  // What the caller can fix (bad input, not found) is theirs to see (debug); anything else is ours, logged as an error.
  const failed = (name: string, context: CallContext | undefined) => (error: unknown): never => {
    const expected = error instanceof ReverieError && error.code !== 'internal';
    logger[expected ? 'debug' : 'error'](`Operation ${name} failed`, { transport: context?.transport ?? 'cli', error });
    throw error;
  };
  const closing = (): Promise<never> => Promise.reject(new ReverieError('internal', 'The engine is shutting down.'));
  return {
    typed: (name, input, context) => (isClosed() ? closing() : invokeTypedOperation(handlers, name, input, context).catch(failed(name, context))),
    unchecked: (name, input, context) => (isClosed() ? closing() : invokeOperation(handlers, name, input, context).catch(failed(name, context))),
  };
}
