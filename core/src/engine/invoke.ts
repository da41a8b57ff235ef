import type { z } from 'zod';
import { ReverieError } from '../platform/errors.js';
import { isOperationName, operations, type CallContext, type OperationHandlers, type OperationInput, type OperationName, type OperationOutput } from '../contract/index.js';

export type { CallContext, OperationHandlers } from '../contract/index.js';

/**
 * The one dispatch path every transport uses: validate input against the contract, run the
 * handler, validate the output. A transport never calls a handler directly. The name and input
 * are whatever arrived (HTTP, IPC, the agent socket): this is the unchecked entry.
 */
export async function invokeOperation(handlers: OperationHandlers, name: string, rawInput: unknown, context: CallContext = { transport: 'cli' }): Promise<unknown> {
  if (!isOperationName(name)) throw new ReverieError('not-found', `Unknown operation "${name}".`);
  const spec = operations[name];
  const parsed = spec.input.safeParse(rawInput ?? {});
  if (!parsed.success) throw new ReverieError('invalid-input', describeIssues(name, parsed.error));
  const handler = handlers[name] as (input: unknown, context: CallContext) => Promise<unknown>;
  const output = await handler(parsed.data, context);
  const checked = spec.output.safeParse(output);
  if (!checked.success) throw new ReverieError('internal', `Operation ${name} produced invalid output: ${describeIssues(name, checked.error)}`);
  return checked.data;
}

/**
 * The same path for callers inside the engine that name the operation in code: the input is
 * typed by the contract and so is the result. The runtime checks stay (defaults are applied and
 * the handler's output is still validated).
 */
export function invokeTypedOperation<N extends OperationName>(handlers: OperationHandlers, name: N, input: OperationInput<N>, context?: CallContext): Promise<OperationOutput<N>> {
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
