/**
 * Local agents' records as the contract carries them: agent identities and scopes, the
 * access log, standing intents, and the answers of the agent-facing operations. zod only
 * (the renderer imports this through the contract).
 */
import { z } from 'zod';
import { OriginClass, TranscriptTool } from '../vocabulary.js';


export const AgentScope = z.enum(['read', 'write']);
export type AgentScope = z.infer<typeof AgentScope>;

/** An agent name: what a person recognises in the access log (`claude-code`, `codex-work`). */
export const AgentName = z
  .string()
  .min(1, 'name must not be empty')
  .max(64, 'name is longer than 64 characters')
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, 'name may use letters, digits, ".", "_" and "-" (starting with a letter or digit)');

export const AgentInfo = z.object({
  /** `agent:<id>` */
  id: z.string(),
  name: z.string(),
  scopes: z.array(AgentScope),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
  revokedAt: z.string().nullable(),
  calls: z.number().int(),
});
export type AgentInfo = z.infer<typeof AgentInfo>;

export const AccessLogEntry = z.object({
  at: z.string(),
  agent: z.string(),
  method: z.string(),
  /** The query, path or session asked for (shortened). */
  detail: z.string().nullable(),
  results: z.number().int().nullable(),
  ok: z.boolean(),
  error: z.string().nullable(),
  durationMs: z.number(),
  transport: z.enum(['socket', 'mcp']),
});
export type AccessLogEntry = z.infer<typeof AccessLogEntry>;

export const MemoryStoreKind = z.enum(['note', 'fact', 'preference']);

export const Intent = z.object({
  /** `intent:<id>` */
  id: z.string(),
  description: z.string(),
  keywords: z.array(z.string()),
  project: z.string().nullable(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  fireBudget: z.number().int(),
  fired: z.number().int(),
  cooldownHours: z.number(),
  lastFiredAt: z.string().nullable(),
  status: z.enum(['armed', 'cooling-down', 'exhausted', 'expired', 'cancelled']),
});
export type Intent = z.infer<typeof Intent>;

export const MatchedEntry = z.object({
  path: z.string(),
  line: z.number().int(),
  text: z.string(),
  triggers: z.array(z.string()),
  score: z.number(),
  origin: OriginClass,
});
export type MatchedEntry = z.infer<typeof MatchedEntry>;

export const BootstrapFile = z.object({ path: z.string(), chars: z.number().int(), included: z.number().int(), truncated: z.boolean() });

export const MemoryGetOutput = z.object({
  path: z.string(),
  /** 1-based first line returned. */
  from: z.number().int(),
  lines: z.number().int(),
  totalLines: z.number().int(),
  text: z.string(),
  origin: OriginClass,
});

export const SessionExcerpt = z.object({
  sessionId: z.string(),
  tool: TranscriptTool,
  sessionKind: z.enum(['interactive', 'cron', 'heartbeat', 'subagent', 'unknown']),
  path: z.string(),
  from: z.number().int(),
  totalLines: z.number().int(),
  lines: z.array(z.object({ line: z.number().int(), role: z.enum(['user', 'assistant']), origin: OriginClass, timestamp: z.string().nullable(), text: z.string() })),
});
