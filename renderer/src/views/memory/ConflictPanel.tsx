import { useDeferredValue, useMemo } from 'react';
import { useReverie } from '../../store/useReverie.js';
import { diffLines, withContext } from './lineDiff.js';

/** Shown when a save was refused because the file changed on disk. The editor keeps the person's text. */
export function ConflictPanel({ message }: { message: string }) {
  const reloadFromDisk = useReverie((s) => s.memory.reloadFromDisk);
  const keepEditing = useReverie((s) => s.memory.keepEditing);
  const disk = useReverie((s) => s.memory.conflictDisk);
  const draftText = useReverie((s) => s.memory.draftText);
  // The text stays in the editor; the revision says when to read it again. Deferred: typing first, the diff after.
  const revision = useDeferredValue(useReverie((s) => s.memory.draftRevision));
  const diff = useMemo(() => (disk === null ? null : diffLines(disk, draftText())), [disk, draftText, revision]);
  return (
    <div className="conflict" role="alert" data-testid="conflict-panel">
      <h3 className="conflict-title">Not saved: the file changed on disk</h3>
      <p data-testid="conflict-message">{message}</p>
      {diff && (
        <div className="conflict-diff" data-testid="conflict-diff" aria-label="Differences between the file on disk and your text">
          <div className="diff-legend muted">
            <span className="diff-disk">− on disk now</span> <span className="diff-yours">+ your text</span>
          </div>
          <pre>
            {withContext(diff).map((line, index) =>
              line.kind === 'gap' ? (
                <span key={index} className="diff-gap">
                  {`⋯ ${line.count} unchanged line${line.count === 1 ? '' : 's'}\n`}
                </span>
              ) : (
                <span key={index} className={`diff-${line.kind}`} data-testid={`diff-${line.kind}`}>
                  {`${line.kind === 'disk' ? '−' : line.kind === 'yours' ? '+' : ' '} ${line.text}\n`}
                </span>
              ),
            )}
          </pre>
        </div>
      )}
      <p className="muted">Your text is still in the editor below. Copy anything you want to keep before reloading.</p>
      <div className="button-row">
        <button type="button" className="button" data-testid="conflict-reload" onClick={() => void reloadFromDisk()}>
          Reload from disk
        </button>
        <button type="button" className="button button-primary" data-testid="conflict-keep" onClick={keepEditing}>
          Keep editing
        </button>
      </div>
    </div>
  );
}
