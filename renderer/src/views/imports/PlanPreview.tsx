import { Badge, type BadgeTone } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { IMPORT_TOOL_LABELS, groupPlanItems, isSelectable, planCounts, type ImportPlanGroup, type ImportPlanItem } from '../../store/importsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes, formatTime } from '../format.js';

/** The plan before anything is written: counts, each group of files with a tick each, then Import. */
export function PlanPreview() {
  const plan = useReverie((s) => s.imports.plan);
  const excluded = useReverie((s) => s.imports.excluded);
  const replace = useReverie((s) => s.imports.replace);
  const applyState = useReverie((s) => s.imports.applyState);
  const setReplace = useReverie((s) => s.imports.setReplace);
  const apply = useReverie((s) => s.imports.apply);
  if (!plan) return null;

  const counts = planCounts(plan.items);
  const groups = groupPlanItems(plan.items);
  const unticked = new Set(excluded);
  const isApplying = applyState === 'applying';
  const willWrite = plan.items.filter(
    (item) => isSelectable(item) && !unticked.has(item.destination) && (item.status === 'new' || replace),
  ).length;

  return (
    <div data-testid="import-plan">
      <dl className="facts facts-compact">
        <dt>Items</dt>
        <dd data-testid="import-plan-counts">
          {counts.new} new · {counts.conflict} conflicting · {counts.unchanged} unchanged · {counts.skipped} skipped
        </dd>
        <dt>Fingerprint</dt>
        <dd>
          <code data-testid="import-plan-fingerprint">{plan.fingerprint}</code>
        </dd>
        <dt>Planned</dt>
        <dd>{formatTime(plan.createdAt)}</dd>
      </dl>
      {plan.notes.length > 0 && (
        <ul className="imports-notes">
          {plan.notes.map((note, i) => (
            <li key={i} className="muted">
              {note}
            </li>
          ))}
        </ul>
      )}
      {plan.items.length === 0 && <EmptyState>Nothing to import: no memory files were found.</EmptyState>}
      {groups.map((group) => (
        <PlanGroup key={group.key} group={group} unticked={unticked} replace={replace} disabled={isApplying} />
      ))}
      <div className="button-row imports-apply-row">
        <label className="checkbox" title="Conflicting files in memory/imports/ are backed up, then overwritten">
          <input
            type="checkbox"
            data-testid="import-replace"
            checked={replace}
            disabled={isApplying}
            onChange={(event) => setReplace(event.target.checked)}
          />
          Replace existing imports{counts.conflict > 0 && ` (${counts.conflict} conflicting)`}
        </label>
        <button type="button" className="button button-primary" data-testid="import-apply" disabled={isApplying} onClick={() => void apply()}>
          {isApplying ? 'Importing…' : `Import ${willWrite} ${willWrite === 1 ? 'file' : 'files'}`}
        </button>
      </div>
    </div>
  );
}

const STATUS_TONE: Record<ImportPlanItem['status'], BadgeTone> = {
  new: 'ok',
  unchanged: 'neutral',
  conflict: 'error',
  skipped: 'warn',
};

interface PlanGroupProps {
  group: ImportPlanGroup;
  unticked: Set<string>;
  replace: boolean;
  disabled: boolean;
}

/** Source and destination never collapse: the destination is what the tick decides about. */
function planColumns({ unticked, replace, disabled }: Omit<PlanGroupProps, 'group'>): Array<Column<ImportPlanItem>> {
  const isTicked = (item: ImportPlanItem): boolean => isSelectable(item) && !unticked.has(item.destination);
  return [
    { key: 'include', header: 'Include', headerHidden: true, minWidth: 40, cell: (item) => <IncludeBox item={item} isTicked={isTicked(item)} disabled={disabled} /> },
    {
      key: 'status',
      header: 'Status',
      minWidth: 110,
      cell: (item) => (
        <>
          <Badge tone={STATUS_TONE[item.status]}>{item.status}</Badge>
          {item.status === 'conflict' && isTicked(item) && <div className="muted imports-hint">{replace ? 'will be replaced' : 'kept as is'}</div>}
        </>
      ),
    },
    {
      key: 'source',
      header: 'Source',
      className: 'path-cell',
      minWidth: 200,
      cell: (item) => (
        <>
          <code>{item.sourcePath}</code>
          {item.reason && <div className="reason-cell">{item.reason}</div>}
        </>
      ),
    },
    {
      key: 'destination',
      header: 'Destination',
      className: 'path-cell',
      minWidth: 200,
      cell: (item) => (item.destination ? <code>{item.destination}</code> : <span className="muted">—</span>),
    },
    { key: 'size', header: 'Size', align: 'end', priority: 2, minWidth: 80, cell: (item) => formatBytes(item.size) },
  ];
}

function PlanGroup({ group, unticked, replace, disabled }: PlanGroupProps) {
  const setGroupIncluded = useReverie((s) => s.imports.setGroupIncluded);
  const selectable = group.items.filter(isSelectable);
  const ticked = selectable.filter((item) => !unticked.has(item.destination)).length;
  const headingId = `import-group-${group.key.replace(/[^\w-]/g, '-')}`;
  return (
    <div className="imports-group" data-testid="import-group" data-group={group.key}>
      <div className="imports-group-head">
        <h3 id={headingId}>
          {IMPORT_TOOL_LABELS[group.tool]} <span className="muted">· {group.collection}</span>
        </h3>
        {selectable.length > 0 && (
          <label className="checkbox">
            <input
              type="checkbox"
              checked={ticked === selectable.length}
              ref={(el) => {
                if (el) el.indeterminate = ticked > 0 && ticked < selectable.length;
              }}
              disabled={disabled}
              onChange={(event) => setGroupIncluded(group.key, event.target.checked)}
            />
            All ({ticked}/{selectable.length})
          </label>
        )}
      </div>
      <DataTable
        className="imports-plan-table"
        aria-labelledby={headingId}
        columns={planColumns({ unticked, replace, disabled })}
        rows={group.items}
        rowKey={(item, i) => `${item.sourcePath}:${i}`}
        rowProps={(item) => ({
          className: `import-item import-${item.status}${isSelectable(item) && unticked.has(item.destination) ? ' is-excluded' : ''}`,
          'data-testid': 'import-item',
          'data-status': item.status,
        })}
      />
    </div>
  );
}

function IncludeBox({ item, isTicked, disabled }: { item: ImportPlanItem; isTicked: boolean; disabled: boolean }) {
  const toggleItem = useReverie((s) => s.imports.toggleItem);
  if (!isSelectable(item)) return null;
  return <input type="checkbox" aria-label={`Import ${item.destination}`} checked={isTicked} disabled={disabled} onChange={() => toggleItem(item.destination)} />;
}
