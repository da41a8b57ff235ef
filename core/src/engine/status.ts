import type { HostInfo, StatusOutput } from '../contract/index.js';
import type { AgentService } from '../agents/agentService.js';
import type { DreamService } from '../dreaming/dreamService.js';
import type { IndexService } from '../index/indexService.js';
import type { Notices } from '../platform/notices.js';
import type { SessionService } from '../sessions/sessionService.js';
import type { HostLock } from '../workspace/hostLock.js';
import type { ResolvedWorkspace } from '../workspace/resolveWorkspace.js';

/** What `status` is assembled from: each service describes its own part. */
export interface StatusParts {
  workspace: ResolvedWorkspace;
  dataDir: string;
  indexPath: string;
  /** This engine's hosting, when it hosts; else the lock says who does. */
  hostInfo: HostInfo | null;
  lock: HostLock;
  index: IndexService;
  sessions: SessionService;
  dreams: DreamService;
  agents: AgentService;
  notices: Notices;
}

export function assembleStatus(parts: StatusParts): StatusOutput {
  const { workspace, lock, agents } = parts;
  const { index, embedding, files } = parts.index.describe();
  return {
    workspace: { path: workspace.root, id: workspace.id, exists: true },
    dataDir: parts.dataDir,
    indexPath: parts.indexPath,
    host: parts.hostInfo ?? lock.readHolder(),
    agentSocket: agents.socketListening || lock.readHolder() ? agents.socketPath : null,
    index,
    embedding,
    sessions: parts.sessions.describe(),
    dreaming: parts.dreams.summary(),
    files,
    notices: parts.notices.list(),
  };
}
