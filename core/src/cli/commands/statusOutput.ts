import type { StatusOutput } from '../../contract/index.js';
import { describeHost } from '../../workspace/hostDescription.js';

/** `reverie status` without --json; loads nothing heavy, as the thin path (no engine) prints it too. */
const KNN_LABEL: Record<StatusOutput['embedding']['knn']['mode'], string> = {
  flat: 'KNN over every vector',
  scan: 'exact scan of every vector',
  cells: 'KNN in the nearest vector cells',
  off: 'keyword candidates re-scored by their vectors',
};

function describeDerived(d: StatusOutput['index']['derived']): string {
  if (d.state === 'done') return `graph up to date (${d.total} files)`;
  const kinds = d.kinds ? `entry kinds ${d.kinds.done}/${d.kinds.total} files, ` : '';
  return `${kinds}graph ${d.done}/${d.total} files${d.state === 'waiting' ? ', after the running sync' : ', in the background'}`;
}

export function formatStatus(s: StatusOutput): string {
  const lines = [
    `Workspace  ${s.workspace.path}`,
    `Data       ${s.dataDir}`,
    `Host       ${s.host ? `${describeHost(s.host)} (pid ${s.host.pid}${s.host.url ? `, ${s.host.url}` : ''})` : 'none running'}`,
    `Index      ${s.index.files === 0 ? 'empty; run `reverie index`' : `${s.index.indexed} indexed, ${s.index.skipped} skipped, ${s.index.failed} failed · ${s.index.chunks} chunks`}`,
    `Last sync  ${s.index.lastSyncAt ?? 'never'}`,
    `Search     ${s.index.searchReady ? 'ready' : 'not ready yet (first index running)'} · ${describeDerived(s.index.derived)}`,
    `Vectors    ${s.embedding.provider} (${s.embedding.dims} dims, ${s.embedding.vectorBackend}) · ${s.embedding.embedded}/${s.embedding.total} chunks${s.embedding.vectorBackendProblem ? ` · ${s.embedding.vectorBackendProblem}` : ''}`,
    `Nearest    ${KNN_LABEL[s.embedding.knn.mode]}${s.embedding.knn.reason ? ` (${s.embedding.knn.reason})` : ''}`,
  ];
  if (s.sessions.transcripts > 0) {
    lines.push(
      `Sessions   ${s.sessions.transcripts} transcripts · ${s.sessions.messages} messages · ${s.sessions.redactions} secrets redacted · ` +
        `${s.sessions.recalledStripped} recalled passages left out · ${s.sessions.unknownLines} unknown and ${s.sessions.malformedLines} malformed lines skipped`,
    );
  }
  const problems = s.files.filter((f) => f.status !== 'indexed');
  if (problems.length > 0) {
    lines.push('', 'Not indexed:');
    for (const f of problems.slice(0, 50)) lines.push(`  ${f.status.padEnd(7)} ${f.path} — ${f.reason ?? ''}`);
    if (problems.length > 50) lines.push(`  … and ${problems.length - 50} more (use --json for all)`);
  }
  for (const notice of s.notices) lines.push('', `Note: ${notice}`);
  return lines.join('\n') + '\n';
}
