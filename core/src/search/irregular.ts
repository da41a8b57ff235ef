/**
 * English irregular verb and noun forms. The porter stemmer joins "paint", "painted" and
 * "painting", but not "buy" and "bought" or "child" and "children": a question asked in one
 * form ("what did she buy?") should find a note written in another ("I bought…").
 */
const GROUPS = `
arise arose arisen|awake awoke awoken|bear bore borne|beat beaten|become became|begin began begun|bend bent|bet|bid|
bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred|bring brought|build built|burn burnt|burst|buy bought|
catch caught|choose chose chosen|cling clung|come came|cost|creep crept|cut|deal dealt|dig dug|draw drew drawn|dream dreamt|
drink drank drunk|drive drove driven|eat ate eaten|fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fling flung|
fly flew flown|forbid forbade forbidden|forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|give gave given|
go went gone goes|grow grew grown|hang hung|hear heard|hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt|
lay laid|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|light lit|lose lost|make made|mean meant|
meet met|pay paid|prove proven|put|quit|read|ride rode ridden|ring rang rung|rise rose risen|run ran|seek sought|sell sold|
send sent|set|sew sewn|shake shook shaken|shine shone|shoot shot|show shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|
sit sat|sleep slept|slide slid|speak spoke spoken|speed sped|spend spent|spin spun|spit spat|split|spread|spring sprang sprung|
stand stood|steal stole stolen|stick stuck|sting stung|stink stank stunk|strike struck|strive strove striven|swear swore sworn|
sweep swept|swim swam swum|swing swung|take took taken|teach taught|tear tore torn|think thought|throw threw thrown|
understand understood|wake woke woken|wear wore worn|weave wove woven|weep wept|win won|write wrote written|
see saw seen|fight fought|hold held|undergo underwent undergone|overcome overcame|withdraw withdrew withdrawn|
child children|man men|woman women|person people|mouse mice|foot feet|tooth teeth|goose geese|ox oxen|
life lives|wife wives|knife knives|leaf leaves|wolf wolves|half halves|shelf shelves`;

const FORMS = new Map<string, readonly string[]>();
for (const group of GROUPS.split('|')) {
  const words = group.trim().split(/\s+/).filter(Boolean);
  if (words.length < 2) continue;
  for (const w of words) {
    const others = words.filter((x) => x !== w);
    const known = FORMS.get(w);
    FORMS.set(w, known ? [...new Set([...known, ...others])] : others);
  }
}

/** Other forms of an irregular English word ("bought" → ["buy"], "buy" → ["bought"]); empty for regular words. */
export function irregularForms(word: string): readonly string[] {
  return FORMS.get(word) ?? [];
}
