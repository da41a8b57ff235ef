import type { OriginClass, SourceTool } from '../../../../core/src/contract/index.js';
import { ALL_ORIGINS, ALL_TOOLS } from '../../store/graphSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { ORIGIN_LABELS, SOURCE_LABELS } from './graphStyle.js';

/** "all sources" when nothing is left out, else the names shown. */
export function describeShown<T extends string>(all: readonly T[], shown: readonly T[], labels: Record<T, string>, everything: string): string {
  return shown.length >= all.length ? everything : shown.map((value) => labels[value]).join(', ');
}

interface GroupProps<T extends string> {
  name: string;
  legend: string;
  all: readonly T[];
  shown: readonly T[];
  labels: Record<T, string>;
  onChange(next: T[]): void;
}

/** One checkbox per value; the last one shown cannot be unticked (an empty filter would show nothing). */
function CheckboxGroup<T extends string>({ name, legend, all, shown, labels, onChange }: GroupProps<T>) {
  return (
    <fieldset className="graph-filter-group" data-testid={`graph-filter-${name}`}>
      <legend>{legend}</legend>
      {all.map((value) => {
        const checked = shown.includes(value);
        return (
          <label key={value} className="graph-filter-option">
            <input
              type="checkbox"
              data-testid={`graph-filter-${name}-${value}`}
              checked={checked}
              disabled={checked && shown.length === 1}
              onChange={(event) => onChange(event.target.checked ? [...shown, value] : shown.filter((v) => v !== value))}
            />
            {labels[value]}
          </label>
        );
      })}
    </fieldset>
  );
}

/** Source tool and origin class filters: each change re-queries the graph with `filters`. */
export function GraphFilterControls() {
  const tools = useReverie((s) => s.graph.tools);
  const origins = useReverie((s) => s.graph.origins);
  const setTools = useReverie((s) => s.graph.setTools);
  const setOrigins = useReverie((s) => s.graph.setOrigins);
  return (
    <div className="graph-filters" data-testid="graph-filters">
      <CheckboxGroup<SourceTool> name="tool" legend="Source" all={ALL_TOOLS} shown={tools} labels={SOURCE_LABELS} onChange={(next) => void setTools(next)} />
      <CheckboxGroup<OriginClass> name="origin" legend="Origin" all={ALL_ORIGINS} shown={origins} labels={ORIGIN_LABELS} onChange={(next) => void setOrigins(next)} />
      <p className="graph-filter-summary" data-testid="graph-filter-summary" aria-live="polite">
        Showing: {describeShown(ALL_TOOLS, tools, SOURCE_LABELS, 'all sources')}; {describeShown(ALL_ORIGINS, origins, ORIGIN_LABELS, 'all origins')}
      </p>
    </div>
  );
}
