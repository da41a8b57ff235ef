import type { DownloadProgress } from './modelSchema.js';

export type { DownloadProgress };

/** Time constant of the rate's exponential smoothing: long enough for a steady ETA, short enough to follow real changes. */
const RATE_SMOOTHING_SECONDS = 2;

/**
 * Turns a stream of byte counts into throttled progress reports with a smoothed rate and
 * an ETA. Reports at most once per `intervalMs` (plus a final one), so a fast local copy
 * never floods a UI or an IPC channel.
 */
export class ProgressMeter {
  private total: number | null = null;
  private rate = 0;
  private hasRate = false;
  private lastSampleAt = 0;
  private lastSampleBytes = 0;
  private lastEmitAt = Number.NEGATIVE_INFINITY;
  private lastEmittedBytes = -1;
  private bytes = 0;

  constructor(
    private readonly onProgress: ((p: DownloadProgress) => void) | undefined,
    private readonly intervalMs = 100,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** A (re)start: `bytes` already on disk, `total` if the server said. Emits at once so a UI can show the size. */
  start(bytes: number, total: number | null): void {
    this.bytes = bytes;
    this.total = total;
    this.lastSampleAt = this.now();
    this.lastSampleBytes = bytes;
    this.emit(this.lastSampleAt);
  }

  update(bytes: number): void {
    this.bytes = bytes;
    const now = this.now();
    if (now - this.lastEmitAt < this.intervalMs) return;
    this.sample(now);
    this.emit(now);
  }

  /** The last report, whatever the throttle says, unless it would repeat the previous one. */
  finish(): void {
    if (this.bytes === this.lastEmittedBytes) return;
    const now = this.now();
    this.sample(now);
    this.emit(now);
  }

  private sample(now: number): void {
    const seconds = (now - this.lastSampleAt) / 1000;
    if (seconds <= 0) return;
    const instant = Math.max(0, this.bytes - this.lastSampleBytes) / seconds;
    if (!this.hasRate) {
      this.rate = instant;
      this.hasRate = true;
    } else {
      const alpha = 1 - Math.exp(-seconds / RATE_SMOOTHING_SECONDS);
      this.rate += alpha * (instant - this.rate);
    }
    this.lastSampleAt = now;
    this.lastSampleBytes = this.bytes;
  }

  private emit(now: number): void {
    this.lastEmitAt = now;
    this.lastEmittedBytes = this.bytes;
    if (!this.onProgress) return;
    const remaining = this.total === null ? null : Math.max(0, this.total - this.bytes);
    const etaSeconds = remaining === null ? null : remaining === 0 ? 0 : this.rate > 0 ? remaining / this.rate : null;
    this.onProgress({ bytes: this.bytes, total: this.total, rate: this.rate, etaSeconds });
  }
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value >= 100 ? value.toFixed(0) : value.toFixed(1)} ${units[unit]}`;
}

/** One line for a terminal or a status bar: `120 MB of 313 MB (38%) · 8.2 MB/s · 24 s left`. */
export function describeProgress(p: DownloadProgress): string {
  const parts = [
    p.total === null ? formatBytes(p.bytes) : `${formatBytes(p.bytes)} of ${formatBytes(p.total)} (${p.total > 0 ? Math.floor((p.bytes / p.total) * 100) : 100}%)`,
  ];
  if (p.rate > 0) parts.push(`${formatBytes(Math.round(p.rate))}/s`);
  if (p.etaSeconds !== null && p.etaSeconds > 0) parts.push(`${formatDuration(p.etaSeconds)} left`);
  return parts.join(' · ');
}

function formatDuration(seconds: number): string {
  const s = Math.ceil(seconds);
  if (s < 60) return `${s} s`;
  const m = Math.floor(s / 60);
  if (m < 60) return `${m} min ${s % 60} s`;
  return `${Math.floor(m / 60)} h ${m % 60} min`;
}
