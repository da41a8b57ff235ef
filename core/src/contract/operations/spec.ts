/** What every operation declares once; transports, scopes and help text derive from it. */
import type { z } from 'zod';

export interface OperationSpec {
  access: 'read' | 'write';
  summary: string;
  input: z.ZodType;
  output: z.ZodType;
}
