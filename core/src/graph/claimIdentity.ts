/**
 * What makes a claim one claim: its subject, predicate, and object entity or normalised literal
 * (labelKey), as the unique index graph_claims_identity (migration 0013) has it. Upserts name
 * it as their conflict target; lookups compare the same expressions so the index answers them.
 */
export const CLAIM_IDENTITY = "subject_id, predicate, ifnull(object_id, 0), ifnull(literal_key, '')";

/** SQL finding one claim by identity; parameters: subject, predicate, object id or 0, literal key or ''. */
export const CLAIM_BY_IDENTITY = "subject_id = ? AND predicate = ? AND ifnull(object_id, 0) = ? AND ifnull(literal_key, '') = ?";
