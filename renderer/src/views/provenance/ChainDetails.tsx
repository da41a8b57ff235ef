import { useRef, useState } from 'react';
import type { ProvenanceChain, SourceKind } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import type { LineRange } from '../../store/memorySlice.js';
import { formatCitation, formatTime } from '../format.js';
import { KindBadge } from './KindBadge.js';
import { OriginBadge, SessionKindBadge } from './OriginBadge.js';
import { ORIGIN_INFO, TOOL_LABEL, UNTRUSTED_TITLE } from './origin.js';
import { describeWrite } from './writtenBy.js';

const SOURCE_NOTE: Record<SourceKind, string> = {
  memory: 'your workspace memory',
  dreams: 'the dreaming diary (DREAMS.md)',
  sessions: 'an agent transcript (searchable, never injected automatically)',
};

type ChainLine = ProvenanceChain['lines'][number];

/** Consecutive lines written by you collapse into one row; every line Reverie or an agent wrote keeps its own. */
export interface LineRow {
  startLine: number;
  endLine: number;
  origin: ChainLine['origin'];
  writtenBy: ChainLine['writtenBy'];
}

export function groupLineRows(lines: readonly ChainLine[]): LineRow[] {
  const rows: LineRow[] = [];
  for (const l of lines) {
    const last = rows[rows.length - 1];
    if (last && !l.writtenBy && !last.writtenBy && last.origin === l.origin && last.endLine + 1 === l.line) last.endLine = l.line;
    else rows.push({ startLine: l.line, endLine: l.line, origin: l.origin, writtenBy: l.writtenBy });
  }
  return rows;
}

interface ChainDetailsProps {
  chain: ProvenanceChain;
  /** The passage a search result cited, when it differs from the chunk shown. */
  cited?: LineRange | null;
  /** Opens the file in the Memory view at these lines; absent for transcripts (they are no workspace file). */
  onOpenFile?: () => void;
}

/** Everything `provenance.get` says about some lines, top (file and lines) to bottom (the cited text). */
export function ChainDetails({ chain, cited = null, onOpenFile }: ChainDetailsProps) {
  const citation = formatCitation(chain.path, chain.startLine, chain.endLine);
  const origin = ORIGIN_INFO[chain.origin];
  return (
    <div className="prov-chain" data-testid="provenance-chain" data-origin={chain.origin} data-source={chain.source}>
      {origin.isWarning && (
        <div className="banner banner-untrusted" role="note" data-testid="provenance-untrusted-warning">
          <span>
            <strong>⚠ Untrusted.</strong> {UNTRUSTED_TITLE}
          </span>
        </div>
      )}

      <section className="prov-section" aria-labelledby="prov-where-title">
        <h3 id="prov-where-title">Where</h3>
        <dl className="facts prov-facts">
          <dt>File</dt>
          <dd>
            {onOpenFile ? (
              <button
                type="button"
                className="link-button prov-file-link"
                data-testid="provenance-location"
                title="Open the file in the Memory view at these lines"
                onClick={onOpenFile}
              >
                {citation}
              </button>
            ) : (
              <code data-testid="provenance-location">{citation}</code>
            )}
            <div className="prov-sub muted">
              {chain.startLine === chain.endLine ? `line ${chain.startLine}` : `lines ${chain.startLine}–${chain.endLine}`}
              {onOpenFile && ' · click to open it in Memory'}
            </div>
            {cited && (cited.startLine !== chain.startLine || cited.endLine !== chain.endLine) && (
              <div className="prov-sub muted" data-testid="provenance-cited-range">
                The search result cited {cited.startLine === cited.endLine ? `line ${cited.startLine}` : `lines ${cited.startLine}–${cited.endLine}`}{' '}
                of this indexed chunk.
              </div>
            )}
          </dd>
          <dt>Source</dt>
          <dd>
            <Badge className={`badge-${chain.source}`} testId="provenance-source">
              {chain.source}
            </Badge>{' '}
            <span className="muted">{SOURCE_NOTE[chain.source]}</span>
          </dd>
          <dt>Origin</dt>
          <dd>
            <OriginBadge origin={chain.origin} testId="provenance-origin" />
            <p className="prov-explain" data-testid="provenance-origin-explanation">
              {origin.explanation}
            </p>
          </dd>
          {chain.sessionKind && (
            <>
              <dt>Session</dt>
              <dd>
                <SessionKindBadge kind={chain.sessionKind} />
              </dd>
            </>
          )}
          {chain.entryKinds && chain.entryKinds.length > 0 && (
            <>
              <dt>Kind</dt>
              <dd data-testid="provenance-kinds">
                {chain.entryKinds.slice(0, 20).map((span) => (
                  <div key={span.startLine} className="prov-kind">
                    <KindBadge span={span} />{' '}
                    <span className="muted">
                      {span.startLine === span.endLine ? `line ${span.startLine}` : `lines ${span.startLine}–${span.endLine}`}, by {span.cue}
                    </span>
                  </div>
                ))}
              </dd>
            </>
          )}
          <dt>Observed</dt>
          <dd data-testid="provenance-observed">
            {chain.observedAt ? <time dateTime={chain.observedAt}>{formatTime(chain.observedAt)}</time> : <span className="muted">unknown</span>}
          </dd>
        </dl>
      </section>

      {chain.lines.length > 0 && <LinesTable lines={chain.lines} />}
      {chain.transcript && <TranscriptDetails transcript={chain.transcript} />}

      <section className="prov-section" aria-labelledby="prov-text-title">
        <h3 id="prov-text-title">Cited text</h3>
        <pre className="prov-text" data-testid="provenance-text">
          {chain.text}
        </pre>
      </section>
    </div>
  );
}

const LINE_COLUMNS: Array<Column<LineRow>> = [
  {
    key: 'line',
    header: 'Line',
    align: 'end',
    minWidth: 50,
    cell: (row) => (row.startLine === row.endLine ? row.startLine : `${row.startLine}–${row.endLine}`),
  },
  { key: 'origin', header: 'Origin', minWidth: 90, cell: (row) => <OriginBadge origin={row.origin} testId="line-origin" /> },
  { key: 'writtenBy', header: 'Written by', minWidth: 160, cell: (row) => <WrittenBy row={row} /> },
];

function WrittenBy({ row }: { row: LineRow }) {
  if (!row.writtenBy) return <>you</>;
  const { summary, facts } = describeWrite(row.writtenBy);
  return (
    <>
      {summary}, <time dateTime={row.writtenBy.writtenAt}>{formatTime(row.writtenBy.writtenAt)}</time>
      <TechnicalDetails facts={facts} testId="provenance-write-details" />
    </>
  );
}

function LinesTable({ lines }: { lines: readonly ChainLine[] }) {
  const rows = groupLineRows(lines);
  const allYours = lines.every((l) => !l.writtenBy && l.origin === 'owner');
  return (
    <section className="prov-section" aria-labelledby="prov-lines-title">
      <h3 id="prov-lines-title">Who wrote each line</h3>
      {allYours && (
        <p className="prov-explain" data-testid="provenance-all-yours">
          You wrote all of it: no line here was written by Reverie or an agent.
        </p>
      )}
      <DataTable
        className="prov-table"
        testId="provenance-lines"
        columns={LINE_COLUMNS}
        rows={rows}
        rowKey={(row) => String(row.startLine)}
        rowProps={(row) => ({ 'data-testid': 'provenance-line', 'data-line': row.startLine, 'data-end-line': row.endLine, 'data-origin': row.origin })}
      />
    </section>
  );
}

type Transcript = NonNullable<ProvenanceChain['transcript']>;
type TranscriptLine = Transcript['lines'][number];

const TRANSCRIPT_COLUMNS: Array<Column<TranscriptLine>> = [
  { key: 'line', header: 'Line', align: 'end', minWidth: 50, cell: (l) => l.line },
  { key: 'sourceLine', header: 'JSONL line', headerTitle: 'Line number in the original JSONL file', align: 'end', minWidth: 70, cell: (l) => l.sourceLine },
  { key: 'role', header: 'Role', minWidth: 80, cell: (l) => l.role },
  { key: 'origin', header: 'Origin', minWidth: 90, cell: (l) => <OriginBadge origin={l.origin} testId="line-origin" /> },
  {
    key: 'time',
    header: 'Time',
    priority: 2,
    minWidth: 140,
    cell: (l) => (l.timestamp ? <time dateTime={l.timestamp}>{formatTime(l.timestamp)}</time> : <span className="muted">unknown</span>),
  },
];

function TranscriptDetails({ transcript }: { transcript: Transcript }) {
  return (
    <section className="prov-section" aria-labelledby="prov-transcript-title" data-testid="provenance-transcript">
      <h3 id="prov-transcript-title">Transcript</h3>
      <dl className="facts prov-facts">
        <dt>Tool</dt>
        <dd data-testid="transcript-tool">{TOOL_LABEL[transcript.tool]}</dd>
        <dt>Session kind</dt>
        <dd>
          <SessionKindBadge kind={transcript.sessionKind} />
        </dd>
        <dt>Project</dt>
        <dd data-testid="transcript-cwd">{transcript.cwd ? <code>{transcript.cwd}</code> : <span className="muted">unknown</span>}</dd>
        {transcript.startedAt && (
          <>
            <dt>Started</dt>
            <dd>
              <time dateTime={transcript.startedAt}>{formatTime(transcript.startedAt)}</time>
            </dd>
          </>
        )}
        <dt>Original file</dt>
        <dd>
          <CopyablePath path={transcript.originalPath} />
        </dd>
      </dl>
      <DataTable
        className="prov-table"
        testId="transcript-lines"
        columns={TRANSCRIPT_COLUMNS}
        rows={transcript.lines}
        rowKey={(l) => String(l.line)}
        rowProps={(l) => ({ 'data-testid': 'transcript-line', 'data-line': l.line, 'data-source-line': l.sourceLine, 'data-origin': l.origin })}
      />
      <TechnicalDetails facts={[{ label: 'Session id', value: transcript.sessionId, testId: 'transcript-session' }]} testId="transcript-technical" />
    </section>
  );
}

/** The transcript's path on disk with a copy button (the browser cannot open local files itself). */
function CopyablePath({ path }: { path: string }) {
  const [copyState, setCopyState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const code = useRef<HTMLElement>(null);

  async function copy(): Promise<void> {
    try {
      await navigator.clipboard.writeText(path);
      setCopyState('copied');
    } catch {
      // No clipboard access (permissions, insecure context): select the text so Ctrl+C works.
      if (code.current) window.getSelection()?.selectAllChildren(code.current);
      setCopyState('failed');
    }
  }

  return (
    <div className="prov-copy">
      <code ref={code} className="prov-original-path" data-testid="transcript-original-path">
        {path}
      </code>
      <div className="prov-copy-row">
        <button type="button" className="button button-small" data-testid="copy-original-path" onClick={() => void copy()}>
          Copy path
        </button>
        <span className="muted prov-sub" role="status">
          {copyState === 'copied' && 'Copied.'}
          {copyState === 'failed' && 'Could not copy; the path is selected, press Ctrl+C.'}
        </span>
      </div>
    </div>
  );
}
