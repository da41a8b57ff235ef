import { Field } from '../../components/Field.js';
import { useReverie } from '../../store/useReverie.js';

/** Whether the chat model adds to the knowledge graph. Saved at once; the graph update that follows applies it. */
export function GraphSettings() {
  const settings = useReverie((s) => s.settings);
  const graph = settings.saved?.graph;
  return (
    <section className="card settings-section graph-settings" aria-labelledby="settings-graph-heading" data-testid="settings-graph">
      <h2 id="settings-graph-heading">Knowledge graph</h2>
      {!graph && settings.state !== 'error' && <p className="muted">Loading…</p>}
      {graph && (
        <Field
          label="Chat model"
          helpId="graph-model-extraction-help"
          help="After the rules, the active chat model (Models, role “chat”) reads changed notes, a few prompts per update. Anything it names is kept only when the lines it cites contain it, and is shown as less certain. Turning this off removes what it added."
          error={settings.graphError}
          errorTestId="graph-settings-error"
        >
          <label className="checkbox">
            <input
              type="checkbox"
              data-testid="graph-model-extraction"
              checked={graph.modelExtraction}
              disabled={settings.graphSaving}
              aria-describedby="graph-model-extraction-help"
              onChange={(event) => void settings.setGraphModelExtraction(event.target.checked)}
            />
            Also extract entities and relations with the chat model
          </label>
        </Field>
      )}
    </section>
  );
}
