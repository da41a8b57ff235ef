import type { GraphClaim, GraphEvidence } from '../../../../core/src/contract/index.js';
import { Badge } from '../../components/Badge.js';

const TITLE = 'The chat model read this in your notes (Settings → Graph); Reverie’s rules did not find it. It goes when that setting is turned off.';

/** Marks what the optional chat-model extraction added, so it can be told from what the rules found. */
export function ModelTag({ testId }: { testId: string }) {
  return (
    <Badge className="graph-model-tag" testId={testId} title={TITLE}>
      extracted by the chat model
    </Badge>
  );
}

/**
 * Every line behind the claim is the model's. Only when it carries all of them (up to 50 are
 * sent; `weight` counts them all): one rules line beyond the 50 would make it the rules' too.
 */
export function isModelOnly(claim: Pick<GraphClaim, 'evidence' | 'weight'>): boolean {
  const all: readonly GraphEvidence[] = claim.evidence;
  return all.length > 0 && all.length >= claim.weight && all.every((e) => e.byModel);
}
