/** The log's levels, least severe first. Plain data (no zod): the process logger reads it in commands that must start fast (`reverie hook`, `reverie mcp`). */
export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
