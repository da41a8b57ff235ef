import { useState, type FormEvent } from 'react';
import { useReverie } from '../../store/useReverie.js';

/**
 * Merge and split on the entity page. Both write ALIASES.md (the person's own file, kept across rebuilds) through
 * the engine, which refuses a cycle or a name already in another group with a sentence shown here.
 */
export function AliasControls({ label, aliases }: { label: string; aliases: readonly string[] }) {
  const mergeNames = useReverie((s) => s.graph.mergeNames);
  const splitName = useReverie((s) => s.graph.splitName);
  const edit = useReverie((s) => s.graph.aliasEdit);
  const [other, setOther] = useState('');
  const saving = edit?.state === 'saving';
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    const name = other.trim();
    if (!name || name === label) return;
    void mergeNames([label, name]).then(() => setOther(''));
  };
  return (
    <section className="entity-alias-controls" data-testid="entity-alias-controls" aria-label="Names of this entity">
      <form className="entity-merge" onSubmit={submit}>
        <label>
          Same thing as{' '}
          <input type="text" value={other} maxLength={200} placeholder="another name, e.g. Dana" data-testid="entity-merge-name" onChange={(event) => setOther(event.target.value)} />
        </label>{' '}
        <button type="submit" className="button button-small" data-testid="entity-merge" disabled={saving || !other.trim() || other.trim() === label}>
          Merge
        </button>
      </form>
      {aliases.length > 0 && (
        <p className="entity-splits">
          <span className="muted">Not the same thing? </span>
          {aliases.map((alias) => (
            <button key={alias} type="button" className="button button-small" data-testid="entity-split" disabled={saving} onClick={() => void splitName(alias, label)}>
              Keep “{alias}” apart
            </button>
          ))}
        </p>
      )}
      {edit && (
        <p role={edit.state === 'error' ? 'alert' : 'status'} className={edit.state === 'error' ? 'entity-alias-error' : 'muted'} data-testid="entity-alias-result" data-state={edit.state}>
          {edit.message}
        </p>
      )}
    </section>
  );
}
