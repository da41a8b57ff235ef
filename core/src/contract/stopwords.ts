/**
 * Shared by search (which ignores these words) and the window (which never highlights them).
 *
 * English function words and question words. They carry no topic, and in a natural-language
 * question ("what did I decide about the backups?") they would otherwise match most chunks.
 */
export const STOPWORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are as at be because been before being below
  between both but by can could did do does doing down during each few for from further had has have
  having he her here hers herself him himself his how i if in into is it its itself just me more most
  my myself no nor not now of off on once only or other our ours ourselves out over own same she should
  so some such than that the their theirs them themselves then there these they this those through to
  too under until up very was we were what when where which while who whom why will with would you your
  yours yourself yourselves also ever every get got gets let lets like may might must shall tell told
  know said say says many much thing things something anything way ways use used using one ones per via
  again yes yeah ok okay hey hi please thanks thank im ive id dont didnt doesnt isnt wasnt arent werent
  cant couldnt wouldnt shouldnt whats whos wheres hows`
    .split(/\s+/)
    .filter(Boolean),
);
