import { randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AgentInfo, AgentScope } from '../contract/index.js';
import { ReverieError } from '../platform/errors.js';
import { sha256Hex } from '../platform/hash.js';

/** What a verified token stands for. */
export interface AuthenticatedAgent {
  id: string;
  name: string;
  scopes: AgentScope[];
}

const TOKEN_PREFIX = 'rvr_';

interface AgentRow {
  id: string;
  name: string;
  scopes: string;
  token_hash: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  calls: number;
}

/**
 * Agents and their tokens. A token is shown once, when created; only its SHA-256 is stored,
 * so a leaked database holds no usable token. Revoked agents stay listed (their log stays).
 */
export class AgentRegistry {
  /** Prepared once: every agent call authenticates. */
  private byTokenHash: Database.Statement<[string], AgentRow> | null = null;

  constructor(private readonly db: Database.Database) {}

  add(name: string, write: boolean): { agent: AgentInfo; token: string } {
    const existing = this.row(name);
    if (existing && !existing.revoked_at) {
      throw new ReverieError('conflict', `An agent named "${name}" already exists. Revoke it first (\`reverie agents revoke ${name}\`) or choose another name.`);
    }
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const scopes: AgentScope[] = write ? ['read', 'write'] : ['read'];
    const id = `agent:${randomBytes(6).toString('hex')}`;
    const now = new Date().toISOString();
    this.db.transaction(() => {
      // A revoked agent's name can be reused: the old row keeps its log under a renamed name.
      if (existing) this.db.prepare('UPDATE agents SET name = ? WHERE id = ?').run(`${existing.name}~revoked~${existing.id.slice('agent:'.length)}`, existing.id);
      this.db.prepare('INSERT INTO agents (id, name, scopes, token_hash, created_at) VALUES (?, ?, ?, ?, ?)').run(id, name, JSON.stringify(scopes), sha256Hex(token), now);
    })();
    return { agent: this.info(this.row(name)!), token };
  }

  list(): AgentInfo[] {
    return (this.db.prepare('SELECT * FROM agents ORDER BY created_at').all() as AgentRow[]).map((r) => this.info(r));
  }

  revoke(name: string): AgentInfo {
    const row = this.row(name);
    if (!row) throw new ReverieError('not-found', `No agent named "${name}"; \`reverie agents list\` shows them.`);
    if (!row.revoked_at) this.db.prepare('UPDATE agents SET revoked_at = ? WHERE id = ?').run(new Date().toISOString(), row.id);
    return this.info(this.row(name)!);
  }

  /** The agent a token belongs to, or a refusal saying why (unknown or revoked). */
  authenticate(token: unknown): AuthenticatedAgent {
    if (typeof token !== 'string' || !token.startsWith(TOKEN_PREFIX) || token.length > 200) {
      throw new ReverieError('unauthenticated', 'A valid agent token is required: send `auth {token}` first or `token` in the params. Create one with `reverie agents add <name>`.');
    }
    this.byTokenHash ??= this.db.prepare<[string], AgentRow>('SELECT * FROM agents WHERE token_hash = ?');
    const row = this.byTokenHash.get(sha256Hex(token));
    if (!row) throw new ReverieError('unauthenticated', 'This token is not known to Reverie. Create one with `reverie agents add <name>`.');
    if (row.revoked_at) throw new RevokedTokenError({ id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as AgentScope[] }, row.revoked_at);
    return { id: row.id, name: row.name, scopes: JSON.parse(row.scopes) as AgentScope[] };
  }

  /** Counts calls and the last use; called from the access log's batched writer. */
  noteUse(agentId: string, calls: number, at: string): void {
    this.db.prepare('UPDATE agents SET calls = calls + ?, last_used_at = ? WHERE id = ?').run(calls, at, agentId);
  }

  private row(name: string): AgentRow | undefined {
    return this.db.prepare('SELECT * FROM agents WHERE name = ?').get(name) as AgentRow | undefined;
  }

  private info(row: AgentRow): AgentInfo {
    return {
      id: row.id,
      name: row.name,
      scopes: JSON.parse(row.scopes) as AgentScope[],
      createdAt: row.created_at,
      lastUsedAt: row.last_used_at,
      revokedAt: row.revoked_at,
      calls: row.calls,
    };
  }
}

/** A revoked agent still knocking: refused, and worth a line in the access log. */
export class RevokedTokenError extends ReverieError {
  constructor(
    readonly agent: AuthenticatedAgent,
    revokedAt: string,
  ) {
    super('unauthenticated', `The token of agent "${agent.name}" was revoked on ${revokedAt}.`);
  }
}
