import type { z } from 'zod';
import { ReverieError } from '../platform/errors.js';
import { isOperationName, operations, type CallContext, type OperationHandlers } from '../contract/index.js';

export type { CallContext, OperationHandlers } from '../contract/index.js';

/**
 * The one dispatch path every transport uses: validate input against the contract, run the
 * handler, validate the output. A transport never calls a handler directly.
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

export function describeIssues(name: string, error: z.ZodError): string {
  return error.issues
    .slice(0, 3)
    .map((issue) => {
      const field = issue.path.length ? issue.path.join('.') : '(input)';
      return `${name}: field "${field}": ${issue.message}`;
    })
    .join('; ');
}
