import { useReverie } from '../../store/useReverie.js';

/** "Linked from": the lines of other notes whose `[[link]]` opens this one; a click opens that line. */
export function Backlinks({ path }: { path: string }) {
  const backlinks = useReverie((s) => (s.memory.backlinksFor === path ? s.memory.backlinks : null));
  const openFile = useReverie((s) => s.memory.openFile);
  if (backlinks === null) return null;
  return (
    <section className="backlinks" aria-labelledby="backlinks-title" data-testid="backlinks">
      <h3 id="backlinks-title" className="backlinks-title">
        Linked from {backlinks.length > 0 && <span className="muted">({backlinks.length})</span>}
      </h3>
      {backlinks.length === 0 ? (
        <p className="muted" data-testid="backlinks-empty">
          No other note links here yet. Write [[{path.split('/').at(-1)?.replace(/\.md$/, '')}]] in a note to link it.
        </p>
      ) : (
        <ul className="backlinks-list">
          {backlinks.map((link) => (
            <li key={`${link.path}:${link.line}`}>
              <button
                type="button"
                className="backlink"
                data-testid="backlink"
                data-path={link.path}
                data-line={link.line}
                onClick={() => void openFile(link.path, { highlight: { startLine: link.line, endLine: link.line } })}
              >
                <span className="backlink-where">
                  {link.path} · line {link.line}
                </span>
                <span className="backlink-text">{link.text}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
