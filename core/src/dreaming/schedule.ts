import type { Logger } from '../platform/log/logger.js';
import { processLogger } from '../platform/log/processLog.js';

const log = processLogger('dreaming/schedule');
const HOUR_MS = 3_600_000;

/** The next local time `HH:MM` strictly after `from`. */
export function nextOccurrence(time: string, from: Date): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const next = new Date(from.getFullYear(), from.getMonth(), from.getDate(), h, m, 0, 0);
  if (next.getTime() <= from.getTime()) next.setDate(next.getDate() + 1);
  return next;
}

/** The latest local time `HH:MM` at or before `from`. */
export function lastOccurrence(time: string, from: Date): Date {
  const [h, m] = time.split(':').map(Number) as [number, number];
  const last = new Date(from.getFullYear(), from.getMonth(), from.getDate(), h, m, 0, 0);
  if (last.getTime() > from.getTime()) last.setDate(last.getDate() - 1);
  return last;
}

export interface SchedulerHooks {
  /** `HH:MM` local, or null when the schedule is off; read at every check so settings apply without a restart. */
  scheduleTime(): string | null;
  /** When any real (not dry) sweep last started, or null. */
  lastSweepAt(): number | null;
  /** When this workspace's schedule was first armed: a missed run is one after this. */
  armedSince(): number;
  runSweep(trigger: 'schedule' | 'catch-up'): Promise<unknown>;
  now(): number;
  logger?: Logger;
}

/**
 * The daily sweep for a host (app, `reverie serve`, `reverie daemon`; never one-shot CLI
 * commands). Catches up at start when a scheduled time passed without a sweep (the machine
 * was off or asleep), and re-reads the setting at least hourly.
 */
export class DreamScheduler {
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  /** The schedule time last seen, and when it changed while hosting: a new time owes nothing for the past. */
  private seenTime: string | null | undefined = undefined;
  private changedAt = 0;

  constructor(private readonly hooks: SchedulerHooks) {}

  start(): void {
    this.stopped = false;
    const time = this.hooks.scheduleTime();
    this.seenTime = time;
    if (time && this.isMissed(time)) void this.fire('catch-up');
    else this.arm();
  }

  nextRunAt(): Date | null {
    const time = this.hooks.scheduleTime();
    return time ? nextOccurrence(time, new Date(this.hooks.now())) : null;
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private isMissed(time: string): boolean {
    const now = this.hooks.now();
    if (this.seenTime !== undefined && this.seenTime !== time) this.changedAt = now;
    this.seenTime = time;
    const due = lastOccurrence(time, new Date(now)).getTime();
    return due > Math.max(this.hooks.armedSince(), this.changedAt) && (this.hooks.lastSweepAt() ?? 0) < due;
  }

  private arm(): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    const time = this.hooks.scheduleTime();
    const now = this.hooks.now();
    const wait = time ? Math.min(nextOccurrence(time, new Date(now)).getTime() - now, HOUR_MS) : HOUR_MS;
    this.timer = setTimeout(() => {
      const current = this.hooks.scheduleTime();
      if (current && this.isMissed(current)) void this.fire('schedule');
      else {
        if (current !== this.seenTime) this.changedAt = this.hooks.now();
        this.seenTime = current;
        this.arm();
      }
    }, Math.max(1000, wait));
    this.timer.unref();
  }

  private async fire(trigger: 'schedule' | 'catch-up'): Promise<void> {
    try {
      await this.hooks.runSweep(trigger);
    } catch (error) {
      // The run records its own failure; the schedule carries on.
      (this.hooks.logger ?? log).warn('A scheduled dream sweep failed', { trigger, error });
    }
    this.arm();
  }
}
