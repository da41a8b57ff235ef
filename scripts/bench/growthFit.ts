/** How a figure grows with the workspace: y ≈ c·n^k fitted by least squares on log-log points. */

export interface GrowthFit {
  /** k: 1 is linear, 2 quadratic; null with fewer than two distinct sizes or a non-positive value. */
  exponent: number | null;
  /** Share of log-variance the line explains (1 = every point on it); null when undefined. */
  r2: number | null;
  points: number;
}

export function fitGrowth(points: ReadonlyArray<{ n: number; value: number }>): GrowthFit {
  // A log needs positive numbers: a zero time (nothing to do) says nothing about growth.
  const usable = points.filter((p) => p.n > 0 && p.value > 0 && Number.isFinite(p.value));
  const xs = usable.map((p) => Math.log(p.n));
  const ys = usable.map((p) => Math.log(p.value));
  const none: GrowthFit = { exponent: null, r2: null, points: usable.length };
  if (usable.length < 2 || usable.length < points.length) return none;
  const mx = xs.reduce((a, b) => a + b, 0) / xs.length;
  const my = ys.reduce((a, b) => a + b, 0) / ys.length;
  let sxx = 0;
  let sxy = 0;
  let syy = 0;
  for (let i = 0; i < xs.length; i++) {
    sxx += (xs[i]! - mx) ** 2;
    sxy += (xs[i]! - mx) * (ys[i]! - my);
    syy += (ys[i]! - my) ** 2;
  }
  if (sxx === 0) return none;
  const exponent = sxy / sxx;
  const r2 = syy === 0 ? null : (sxy * sxy) / (sxx * syy);
  return { exponent, r2, points: usable.length };
}
