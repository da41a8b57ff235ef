import type { HTMLAttributes, ReactNode } from 'react';
import { classNames } from './classNames.js';
import './Badge.css';

export type BadgeTone = 'neutral' | 'info' | 'ok' | 'warn' | 'error';

/**
 * Each tone's class. The names are older than the tones (the first badges were a file's index
 * state: indexed, skipped, failed) and stay, since saved selectors and tests know them.
 */
const TONE_CLASS: Record<BadgeTone, string | null> = {
  neutral: null,
  info: 'badge-memory',
  ok: 'badge-indexed',
  warn: 'badge-skipped',
  error: 'badge-failed',
};

interface BadgeProps extends Omit<HTMLAttributes<HTMLSpanElement>, 'className'> {
  tone?: BadgeTone;
  /** A colour of its own instead of a tone (`badge-dreams`, `badge-sessions`), or spacing. */
  className?: string;
  testId?: string;
  children?: ReactNode;
  [data: `data-${string}`]: string | undefined;
}

/** A short word about a state: "indexed", "failed", "dry run". */
export function Badge({ tone = 'neutral', className, testId, children, ...attributes }: BadgeProps) {
  return (
    <span className={classNames('badge', TONE_CLASS[tone], className)} data-testid={testId} {...attributes}>
      {children}
    </span>
  );
}
