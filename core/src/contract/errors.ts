/** Errors, as every transport reports them. */
import { z } from 'zod';

export const ErrorCode = z.enum([
  'invalid-input',
  'not-found',
  'conflict',
  'workspace-missing',
  'locked',
  'forbidden',
  'too-large',
  /** A store Reverie cannot rebuild (dreaming, agents) is damaged: the message names the file and what to do. */
  'damaged',
  'unauthenticated',
  'internal',
]);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const ErrorPayload = z.object({ code: ErrorCode, message: z.string() });
export type ErrorPayload = z.infer<typeof ErrorPayload>;
