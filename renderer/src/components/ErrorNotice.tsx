import type { ReactNode, Ref } from 'react';
import { classNames } from './classNames.js';
import { readableError } from './errorText.js';
import './ErrorNotice.css';

interface ErrorNoticeProps {
  /** What failed, for people: "Could not list models". The error's own text follows it. */
  title?: ReactNode;
  /** The error's text (from the engine or the connection); structured or long text goes behind "Details". */
  error?: string | null;
  /** `below`: the error's text on a line of its own, for a title that is a whole sentence. */
  errorPlacement?: 'inline' | 'below';
  /** What to do about it, after the message. */
  hint?: ReactNode;
  onRetry?(): void;
  retryLabel?: string;
  retryTestId?: string;
  /** Other buttons, after the retry. */
  actions?: ReactNode;
  /** `inline`: red text in a table cell or a card, without the banner's box. */
  variant?: 'banner' | 'inline';
  testId?: string;
  /** The error code, as `data-code`. */
  code?: string | null;
  className?: string;
  /** Focus may be moved here (`tabIndex=-1`), when the control that led to the error is gone. */
  focusable?: boolean;
  ref?: Ref<HTMLDivElement>;
}

/** A failure said plainly, with its details on demand and a way to try again. */
export function ErrorNotice(props: ErrorNoticeProps) {
  const { title, error, errorPlacement = 'inline', hint, onRetry, actions, variant = 'banner' } = props;
  const readable = error ? readableError(error) : null;
  const inline = readable && errorPlacement === 'inline' ? readable.summary : null;
  return (
    <div
      ref={props.ref}
      tabIndex={props.focusable ? -1 : undefined}
      className={classNames('error-notice', variant === 'banner' ? 'banner banner-error' : 'error-notice-inline', props.className)}
      role="alert"
      data-testid={props.testId}
      data-code={props.code ?? undefined}
    >
      <div className="error-notice-body">
        <span className="error-notice-message">
          {title}
          {title && inline ? ': ' : null}
          {inline}
          {hint ? <>{inline && !/[.!?…]$/.test(inline) ? '.' : null} {hint}</> : null}
        </span>
        {readable && errorPlacement === 'below' && <div className="error-notice-text">{readable.summary}</div>}
        {readable?.details && (
          <details className="error-notice-details">
            <summary>Details</summary>
            <pre>{readable.details}</pre>
          </details>
        )}
      </div>
      {(onRetry || actions) && (
        <span className="error-notice-actions">
          {onRetry && (
            <button type="button" className="button button-small" data-testid={props.retryTestId} onClick={onRetry}>
              {props.retryLabel ?? 'Try again'}
            </button>
          )}
          {actions}
        </span>
      )}
    </div>
  );
}
