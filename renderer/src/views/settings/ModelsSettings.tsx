import type { FormEvent } from 'react';
import type { ModelInfo, ModelRole, StatusOutput } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';
import { DataTable, type Column } from '../../components/DataTable.js';
import { EmptyState } from '../../components/EmptyState.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { MODEL_ROLES, groupModelsByRole } from '../../store/modelsSlice.js';
import { useReverie } from '../../store/useReverie.js';
import { formatBytes, formatTime } from '../format.js';
import { TechnicalDetails } from '../../components/TechnicalDetails.js';
import { downloadSummary, embeddedSummary } from './progressText.js';

const ROLE_LABELS: Record<ModelRole, string> = { embedding: 'Embedding', chat: 'Chat' };

/** How a search finds its nearest vectors (status.embedding.knn). */
const KNN_DESCRIPTION: Record<StatusOutput['embedding']['knn']['mode'], string> = {
  flat: 'compares the query with every vector',
  scan: 'exact scan of every vector',
  cells: 'compares the query with the vectors in the nearest groups',
  off: 'keyword candidates, re-scored by their vectors',
};

export function ModelsSettings() {
  return (
    <section className="card settings-section" aria-labelledby="settings-models-heading" data-testid="settings-models">
      <h2 id="settings-models-heading">Models</h2>
      <ActiveEmbedding />
      <InstalledModels />
      <PullForm />
    </section>
  );
}

function ActiveEmbedding() {
  const data = useReverie((s) => s.status.data);
  const statusState = useReverie((s) => s.status.state);
  const statusError = useReverie((s) => s.status.error);
  const live = useReverie((s) => s.app.embedProgress);

  if (!data) {
    return (
      <div className="settings-subsection">
        <h3>Active embedding</h3>
        {statusState === 'error' ? (
          <ErrorNotice title="Could not load the embedding status" error={statusError} testId="embedding-status-error" />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </div>
    );
  }

  const embedding = data.embedding;
  const done = live?.done ?? embedding.embedded;
  const total = live?.total ?? embedding.total;
  const isRunning = embedding.running || live !== null;
  return (
    <div className="settings-subsection" data-testid="active-embedding">
      <h3>Active embedding</h3>
      <dl className="facts facts-compact">
        <dt>Provider</dt>
        <dd data-testid="embedding-provider">
          {embedding.provider}
          {embedding.provider === 'hash' && <span className="muted"> · built in, no model file (words and spellings, not meaning)</span>}
        </dd>
        <dt>Model</dt>
        <dd data-testid="embedding-model">
          {embedding.provider === 'hash' ? 'built-in word and spelling vectors' : <code>{embedding.model}</code>}
        </dd>
        <dt>Dimensions</dt>
        <dd data-testid="embedding-dims">{embedding.dims}</dd>
        <dt>Vector backend</dt>
        <dd data-testid="vector-backend" data-backend={embedding.vectorBackend}>
          <Badge tone={embedding.vectorBackend === 'scan' ? 'warn' : 'ok'}>{embedding.vectorBackend}</Badge>
          <span className="muted">
            {embedding.vectorBackend === 'scan' ? ' · exact scan in batches (slower on large workspaces)' : ' · searched inside the index file'}
          </span>
        </dd>
        <dt>Nearest vectors</dt>
        <dd data-testid="knn-mode" data-mode={embedding.knn.mode}>
          {KNN_DESCRIPTION[embedding.knn.mode]}
          {embedding.knn.reason && <span className="muted"> · {embedding.knn.reason}</span>}
        </dd>
        <dt>Embedded</dt>
        <dd data-testid="embedding-count">
          <span className="progress-line">
            {embeddedSummary(done, total)}
            {isRunning && total > 0 && (
              <progress
                className="index-progress"
                data-testid="embedding-progress"
                max={total}
                value={done}
                aria-label="Embedding progress"
              />
            )}
            {isRunning && <span className="muted">embedding…</span>}
          </span>
        </dd>
      </dl>
      <TechnicalDetails
        testId="embedding-technical"
        facts={[
          { label: 'Model id', value: embedding.model },
          { label: 'Generation', value: embedding.generation ?? 'none yet', testId: 'embedding-generation' },
          { label: 'Vector search', value: `${embedding.vectorBackend}, ${embedding.knn.mode}` },
        ]}
      />
      {embedding.vectorBackend === 'scan' && embedding.vectorBackendProblem && (
        <div className="banner banner-warn" data-testid="vector-backend-problem">
          sqlite-vec could not be loaded, so vectors are compared by scanning: {embedding.vectorBackendProblem}
        </div>
      )}
      {embedding.lastError && (
        <ErrorNotice title="Embedding failed" error={embedding.lastError} hint="Keyword search keeps working." testId="embedding-last-error" />
      )}
    </div>
  );
}

function InstalledModels() {
  const models = useReverie((s) => s.models);
  const { list, listState, listError } = models;

  return (
    <div className="settings-subsection" data-testid="installed-models">
      <h3>Installed models</h3>
      {models.actionError && <ErrorNotice error={models.actionError} testId="model-action-error" />}
      {listState === 'error' && <ErrorNotice title="Could not list models" error={listError} testId="models-error" onRetry={() => void models.load()} />}
      {!list && listState !== 'error' && <p className="muted">Loading…</p>}
      {list && list.models.length === 0 && (
        <EmptyState testId="models-empty">No models installed. Reverie uses its built-in hash embeddings until you add one below.</EmptyState>
      )}
      {list &&
        list.models.length > 0 &&
        groupModelsByRole(list.models).map(({ role, models: group }) => (
          <div key={role} className="model-group" data-testid="model-group" data-role={role}>
            <h4>{ROLE_LABELS[role]}</h4>
            <DataTable
              className="models-table"
              columns={MODEL_COLUMNS}
              rows={group}
              rowKey={(model) => model.id}
              rowProps={(model) => ({ 'data-testid': 'model-row', 'data-model': model.id, 'data-active': model.active })}
              empty={<EmptyState>None installed.</EmptyState>}
            />
          </div>
        ))}
    </div>
  );
}

const MODEL_COLUMNS: Array<Column<ModelInfo>> = [
  {
    key: 'file',
    header: 'File',
    className: 'path-cell',
    colClassName: 'col-file',
    minWidth: 200,
    cell: (model) => (
      <>
        <code>{model.file}</code>
        {model.active && (
          <Badge tone="ok" className="model-active" testId="model-active">
            active
          </Badge>
        )}
      </>
    ),
  },
  { key: 'size', header: 'Size', align: 'end', colClassName: 'col-size', minWidth: 90, cell: (model) => formatBytes(model.size) },
  {
    key: 'source',
    header: 'Source',
    className: 'path-cell source-cell',
    priority: 2,
    minWidth: 200,
    cellProps: (model) => ({ title: `Added ${formatTime(model.addedAt)} · sha256 ${model.sha256}` }),
    cell: (model) => <code>{model.source}</code>,
  },
  { key: 'actions', header: 'Actions', headerHidden: true, className: 'actions-cell', colClassName: 'col-actions', minWidth: 150, cell: (model) => <ModelActions model={model} /> },
];

function ModelActions({ model }: { model: ModelInfo }) {
  const busyModel = useReverie((s) => s.models.busyModel);
  const use = useReverie((s) => s.models.use);
  const remove = useReverie((s) => s.models.remove);
  const isBusy = busyModel === model.id;
  return (
    <>
      <button
        type="button"
        className="button button-small"
        data-testid="model-use"
        disabled={model.active || busyModel !== null}
        aria-label={`Use ${model.file} for ${model.role}`}
        onClick={() => void use(model)}
      >
        {isBusy ? 'Working…' : 'Use'}
      </button>
      <button
        type="button"
        className="button button-small button-danger"
        data-testid="model-remove"
        disabled={busyModel !== null}
        aria-label={`Remove ${model.file}`}
        onClick={() => void remove(model)}
      >
        Remove
      </button>
    </>
  );
}

function PullForm() {
  const models = useReverie((s) => s.models);
  const { pull, download, list } = models;
  const isRunning = pull?.state === 'running';
  const placeholder = list?.defaultEmbeddingUri && models.pullRole === 'embedding' ? list.defaultEmbeddingUri : 'hf:owner/repo/model.gguf or /path/to/model.gguf';
  // Progress belongs to the pull running here, or to a download someone started elsewhere (the CLI).
  const showDownload = download !== null && (isRunning || !download.done || pull?.state === 'done');

  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    void models.startPull();
  }

  return (
    <div className="settings-subsection" data-testid="pull-model">
      <h3>Add a model</h3>
      <form className="pull-form" onSubmit={onSubmit} noValidate>
        <label htmlFor="pull-uri" className="visually-hidden">
          Model URI or local .gguf path
        </label>
        <input
          id="pull-uri"
          className="text-input pull-uri"
          data-testid="pull-uri"
          type="text"
          spellCheck={false}
          autoComplete="off"
          placeholder={placeholder}
          value={models.pullUri}
          disabled={isRunning}
          aria-describedby="pull-help"
          onChange={(event) => models.setPullUri(event.target.value)}
        />
        <label htmlFor="pull-role" className="visually-hidden">
          Role
        </label>
        <select
          id="pull-role"
          className="select"
          data-testid="pull-role"
          value={models.pullRole}
          disabled={isRunning}
          onChange={(event) => models.setPullRole(event.target.value as ModelRole)}
        >
          {MODEL_ROLES.map((role) => (
            <option key={role} value={role}>
              {ROLE_LABELS[role]}
            </option>
          ))}
        </select>
        <button type="submit" className="button button-primary" data-testid="pull-button" disabled={isRunning}>
          {isRunning ? 'Adding…' : 'Add model'}
        </button>
      </form>
      <p className="field-help" id="pull-help">
        A Hugging Face URI (<code>hf:owner/repo/file.gguf</code>), an <code>https://</code> URL, or the path of a local <code>.gguf</code> file.
        {list?.defaultEmbeddingUri && ' Leave it empty to download the default embedding model.'}
      </p>

      {showDownload && download && (
        <div className="download" data-testid="download">
          <div className="download-uri" title={download.uri}>
            <code>{download.uri}</code>
          </div>
          <div className="progress-line">
            {download.total ? (
              <progress
                className="index-progress download-progress"
                data-testid="download-progress"
                max={download.total}
                value={Math.min(download.bytes, download.total)}
                aria-label="Download progress"
              />
            ) : (
              !download.done && <progress className="index-progress download-progress" data-testid="download-progress" aria-label="Download progress" />
            )}
            <span data-testid="download-text">{downloadSummary(download)}</span>
          </div>
        </div>
      )}
      {isRunning && !download && (
        <p className="muted pull-running" data-testid="pull-running" role="status">
          Adding {pull.uri}…
        </p>
      )}
      {pull?.state === 'error' && <ErrorNotice title={pull.uri ? `Could not add ${pull.uri}` : undefined} error={pull.error} testId="pull-error" />}
      {pull?.state === 'done' && pull.model && (
        <p className="saved-label" data-testid="pull-done" role="status">
          Added {pull.model.file} ({formatBytes(pull.model.size)}).{!pull.model.active && ' Press “Use” to make it the active model.'}
        </p>
      )}
    </div>
  );
}
