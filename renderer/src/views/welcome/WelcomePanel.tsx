import type { FormEvent } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useReverie } from '../../store/useReverie.js';
import { serveCommandFor } from '../../store/welcomeSlice.js';
import { CopyBox } from '../agents/CopyBox.js';
import './welcome.css';

/** First run: where memory lives, keep it or choose another folder, then bring in agents' memory. Never modal. */
export function WelcomePanel() {
  const welcome = useReverie((s) => s.welcome);
  const { info, phase, choice, error } = welcome;
  if (phase === 'hidden' || !info) return null;
  const isBusy = phase === 'opening';

  return (
    <section className="card welcome" aria-labelledby="welcome-heading" data-testid="welcome" data-phase={phase}>
      <header className="welcome-header">
        <h2 id="welcome-heading">Welcome to Reverie</h2>
        {(phase === 'choose' || phase === 'opening') && (
          <button
            type="button"
            className="link-button"
            data-testid="welcome-dismiss"
            title="Keep this workspace and close the welcome"
            disabled={isBusy}
            onClick={() => void welcome.dismiss()}
          >
            Dismiss
          </button>
        )}
      </header>

      {error && <ErrorNotice error={error} testId="welcome-error" />}

      {(phase === 'choose' || phase === 'opening') && (
        <>
          <p>
            Your memory lives in a workspace: a folder of plain Markdown files that you own and can edit with any editor. This one is at{' '}
            <code data-testid="welcome-root">{info.root}</code>.
          </p>
          {welcome.notice && (
            <p className="muted" role="status" data-testid="welcome-notice">
              {welcome.notice}
            </p>
          )}
          <div className="button-row">
            <button type="button" className="button button-primary" data-testid="welcome-keep" disabled={isBusy} onClick={() => void welcome.keepWorkspace()}>
              Keep this workspace
            </button>
            {info.openClaw && (
              <button type="button" className="button" data-testid="welcome-openclaw" disabled={isBusy} onClick={() => void welcome.openOpenClaw()}>
                Use my OpenClaw workspace ({info.openClaw})
              </button>
            )}
            <button type="button" className="button" data-testid="welcome-choose" disabled={isBusy} onClick={() => void welcome.chooseAnotherFolder()}>
              Choose another folder…
            </button>
          </div>
          {welcome.isTypingPath && <TypedPathForm isBusy={isBusy} example={info.starterDir} />}
        </>
      )}

      {phase === 'switching' && choice && (
        <p role="status" data-testid="welcome-switching">
          Opening <code>{choice.root}</code>… Reverie restarts on it; this window reloads when it is ready.
        </p>
      )}

      {phase === 'chosen' && choice && (choice.restartRequired ? <RestartRequired root={choice.root} /> : <ImportOffer root={choice.root} />)}
    </section>
  );
}

function TypedPathForm({ isBusy, example }: { isBusy: boolean; example: string }) {
  const welcome = useReverie((s) => s.welcome);
  function onSubmit(event: FormEvent): void {
    event.preventDefault();
    void welcome.openTypedPath();
  }
  return (
    <form className="welcome-path-form" onSubmit={onSubmit} data-testid="welcome-path-form">
      <label htmlFor="welcome-path-input">Full path of the folder</label>
      <input
        id="welcome-path-input"
        className="text-input path-input"
        data-testid="welcome-path-input"
        type="text"
        spellCheck={false}
        autoComplete="off"
        placeholder={`for example ${example}`}
        value={welcome.typedPath}
        onChange={(event) => welcome.setTypedPath(event.target.value)}
      />
      <label className="checkbox">
        <input
          type="checkbox"
          data-testid="welcome-create"
          checked={welcome.createIfMissing}
          onChange={(event) => welcome.setCreateIfMissing(event.target.checked)}
        />
        Create it if missing (with starter files)
      </label>
      <button type="submit" className="button button-primary" data-testid="welcome-open-path" disabled={isBusy}>
        Use this folder
      </button>
    </form>
  );
}

function RestartRequired({ root }: { root: string }) {
  const close = useReverie((s) => s.welcome.close);
  return (
    <div data-testid="welcome-restart">
      <p>
        Your workspace is now <code>{root}</code>. This <code>reverie serve</code> still serves the previous one: stop it (Ctrl+C) and start it
        again with:
      </p>
      <CopyBox text={serveCommandFor(root)} testId="welcome-restart-command" label="the command that starts Reverie on the new workspace" />
      <p className="muted">Then open Imports there to bring in memory from your agents.</p>
      <div className="button-row">
        <button type="button" className="button" data-testid="welcome-close" onClick={close}>
          Close
        </button>
      </div>
    </div>
  );
}

function ImportOffer({ root }: { root: string }) {
  const welcome = useReverie((s) => s.welcome);
  return (
    <div data-testid="welcome-import-offer">
      <p>
        Your workspace is <code>{root}</code>. Already using Codex, Claude Code or Hermes? Bring the memory they wrote into it.
      </p>
      <div className="button-row">
        <button type="button" className="button button-primary" data-testid="welcome-import" onClick={welcome.openImports}>
          Import memory from your agents
        </button>
        <button type="button" className="button" data-testid="welcome-close" onClick={welcome.close}>
          Not now
        </button>
      </div>
    </div>
  );
}
