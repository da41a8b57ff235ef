import type { DreamCandidate } from '../../../../core/src/contract/index.js';
import { EmptyState } from '../../components/EmptyState.js';
import { CHART_MAX_BARS, OUTCOME_LABEL, chartGeometry, formatUnit } from './dreamText.js';
import './ScoreChart.css';

const LEGEND: Array<DreamCandidate['outcome']> = ['promoted', 'proposed', 'not-written', 'below-gates', 'ineligible', 'duplicate'];

/** One bar per candidate (the top 30 by score), a line at the score gate, coloured by outcome. */
export function ScoreChart({ candidates, minScore }: { candidates: readonly DreamCandidate[]; minScore: number }) {
  if (candidates.length === 0) return <EmptyState>No candidates in this run.</EmptyState>;
  const chart = chartGeometry(candidates, minScore);
  const present = new Set(chart.bars.map((bar) => bar.outcome));
  return (
    <figure className="dream-chart" data-testid="dream-chart">
      <div className="dream-chart-frame">
        <span className="dream-chart-axis dream-chart-axis-top" aria-hidden="true">
          {formatUnit(chart.max)}
        </span>
        <svg
          className="dream-chart-svg"
          viewBox={`0 0 ${chart.width} ${chart.height}`}
          preserveAspectRatio="none"
          role="img"
          aria-label={`Scores of the top ${chart.bars.length} candidates against the gate at ${formatUnit(minScore)}`}
        >
          {chart.bars.map((bar) => (
            <rect
              key={bar.key}
              className={`dream-bar dream-bar-${bar.outcome}`}
              data-testid="dream-chart-bar"
              data-outcome={bar.outcome}
              data-score={bar.score}
              x={bar.x}
              y={bar.y}
              width={bar.width}
              height={bar.height}
            >
              <title>{bar.label}</title>
            </rect>
          ))}
          <line
            className="dream-threshold"
            data-testid="dream-chart-threshold"
            x1={0}
            x2={chart.width}
            y1={chart.thresholdY}
            y2={chart.thresholdY}
            vectorEffect="non-scaling-stroke"
          />
        </svg>
        <span className="dream-chart-axis dream-chart-axis-bottom" aria-hidden="true">
          0
        </span>
      </div>
      <figcaption className="dream-chart-legend">
        <span className="dream-legend-item">
          <span className="dream-legend-line" aria-hidden="true" /> gate {formatUnit(minScore)}
        </span>
        {LEGEND.filter((outcome) => present.has(outcome)).map((outcome) => (
          <span key={outcome} className="dream-legend-item">
            <span className={`dream-legend-swatch dream-bar-${outcome}`} aria-hidden="true" /> {OUTCOME_LABEL[outcome]}
          </span>
        ))}
        {candidates.length > CHART_MAX_BARS && (
          <span className="muted">
            top {CHART_MAX_BARS} of {candidates.length}
          </span>
        )}
      </figcaption>
    </figure>
  );
}
