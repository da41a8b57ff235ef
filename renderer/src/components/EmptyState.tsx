import type { HTMLAttributes, ReactNode } from 'react';
import { classNames } from './classNames.js';
import './EmptyState.css';

interface EmptyStateProps extends Omit<HTMLAttributes<HTMLDivElement>, 'title' | 'className' | 'children'> {
  title?: ReactNode;
  /** The sentence that says why there is nothing, or what would add something. */
  children?: ReactNode;
  /** A button that fills the list (clear the filters, add the first one). */
  action?: ReactNode;
  /** Centred in the space of a whole view or pane, instead of a line in a section. */
  centered?: boolean;
  className?: string;
  testId?: string;
  [data: `data-${string}`]: string | undefined;
}

/** What an empty list shows instead of nothing. */
export function EmptyState({ title, children, action, centered = false, className, testId, ...attributes }: EmptyStateProps) {
  return (
    <div className={classNames('empty-state', centered && 'empty-state-centered', className)} data-testid={testId} {...attributes}>
      {title && <p className="empty-state-title">{title}</p>}
      {children && <p className="empty-state-text">{children}</p>}
      {action && <div className="empty-state-action">{action}</div>}
    </div>
  );
}
