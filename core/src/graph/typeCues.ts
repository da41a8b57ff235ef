import type { EntityType } from '../contract/index.js';
import { headWordOf, tailWordOf, cueWords } from './cueTail.js';
import { knownNameType } from './knownNames.js';

/**
 * What the words right around a capitalised name say it is, when they say it plainly:
 * "Mika Lindqvist: partner, designer at …" is a person, "engineer at Quillfin" an organisation,
 * "lives in Wedding" a place, "Postgres 16" or "reachable over Tailscale" a tool, "the Atlas
 * repo" a project. Only unambiguous cues count: "in X", "with X" or "at X" alone say nothing
 * (in Berlin, in Go; with Dana, with Postgres; at Quillfin, at Tempelhof).
 */
export function typeFromContext(before: string, after: string, options: { sentenceStart?: boolean; label?: string } = {}): EntityType | null {
  const lastWord = lastWordOf(before);
  const tail = tailWordOf(before);
  const head = headWordOf(after);
  const called = lastWord.endsWith('called') || lastWord.endsWith('named') ? CALLED_BEFORE.exec(before) : null;
  if (called) return KIND_CALLED[called[1]!.toLowerCase()] ?? null;
  if (((PERSON_TITLE_LAST.has(tail) || before.trimEnd().endsWith('.')) && PERSON_TITLE_BEFORE.test(before)) || (KIN_WORDS.has(tail) && isAfterKinWord(before)) || hasRoleAfter(before, after) || PERSON_POSSESSION_AFTER.test(after) || PERSON_AND_I_AFTER.test(after)) return 'person';
  if (SCORE_AFTER.test(after) || (endsWithScore(before) && SCORE_BEFORE.test(before))) return 'organization';
  // A sentence's first word may be an adjective ("Old cluster: …", "New server"): nouns after it say nothing.
  const nounAfter = !options.sentenceStart || (options.label !== undefined && !SENTENCE_ADJECTIVES.has(options.label.toLowerCase()));
  if ((ORGANISATION_LAST.has(tail) && ORGANISATION_BEFORE.test(before)) || (nounAfter && ORGANISATION_HEAD.has(head) && ORGANISATION_AFTER.test(after))) return 'organization';
  // "dinner at Ottilie's": somebody's home, not a place called Ottilie.
  const possessive = /^['’]s\b/.test(after);
  if ((!possessive && ((PLACE_LAST.has(tail) && PLACE_BEFORE.test(before)) || (/(?:to|the)$/.test(lastWord) && WALKED_TO_BEFORE.test(before)) || (BUILDING_ON_LAST.has(tail) && BUILDING_ON_BEFORE.test(before)))) || (nounAfter && PLACE_HEAD.has(head) && PLACE_AFTER.test(after)) || (MOVE_TO_LAST.has(tail) && MOVE_TO_BEFORE.test(before) && FROM_PLACE_AFTER.test(after)) || (/(?:to|from)$/.test(lastWord) && MOVE_FROM_TO_BEFORE.test(before))) return 'place';
  if (options.label !== undefined && isAirportCode(options.label, before, after)) return 'place';
  if (isFollowedByKnownPlace(options.label, after) || isInsideKnownPlace(before)) return 'place';
  if ((MACHINE_LAST.has(tail) && MACHINE_BEFORE.test(before)) || (nounAfter && MACHINE_HEAD.has(head) && MACHINE_AFTER.test(after))) return 'machine';
  // "Phase 2", "Step 3" open sentences: there only a dotted version ("Postgres 16.10") counts.
  const version = options.sentenceStart ? DOTTED_VERSION_AFTER : VERSION_AFTER;
  if ((TOOL_LAST.has(tail) && TOOL_BEFORE.test(before)) || (before.includes(':') && TOOL_LIST_BEFORE.test(before)) || (LANGUAGE_LAST.has(tail) && LANGUAGE_BEFORE.test(before)) || (nounAfter && TOOL_HEAD.has(head) && TOOL_AFTER.test(after)) || version.test(after)) return 'tool';
  if ((PROJECT_LAST.has(tail) && PROJECT_BEFORE.test(before)) || (nounAfter && PROJECT_HEAD.has(head) && PROJECT_AFTER.test(after))) return 'project';
  return null;
}

/**
 * The end of the words before a name, lowercased, when whitespace follows it (else ""): a cue
 * that ends in "word\s+$" matches only when it ends so, which is cheaper to ask first than to
 * run the cue's pattern at every position of the words before every name.
 */
function lastWordOf(before: string): string {
  const trimmed = before.trimEnd(); // the whitespace \s matches
  return trimmed.length === before.length ? '' : trimmed.slice(-8).toLowerCase();
}

/** "a company called Kobo Rails", "a place called Elizabeth": the kind of thing it is, named. */
const KIND_CALLED: Record<string, EntityType> = {
  company: 'organization', firm: 'organization', startup: 'organization', agency: 'organization', bank: 'organization', charity: 'organization', school: 'organization', band: 'organization',
  place: 'place', town: 'place', village: 'place', city: 'place', neighbourhood: 'place', neighborhood: 'place', district: 'place', suburb: 'place', area: 'place', island: 'place', street: 'place', restaurant: 'place', bar: 'place', café: 'place', cafe: 'place',
  tool: 'tool', app: 'tool', library: 'tool', framework: 'tool', database: 'tool',
  guy: 'person', woman: 'person', man: 'person', girl: 'person', boy: 'person', friend: 'person', colleague: 'person',
};
const CALLED_BEFORE = new RegExp(`\\b(?:a|an|the|this|some)\\s+(?:[\\p{L}-]+\\s+)?(${Object.keys(KIND_CALLED).join('|')})\\s+(?:called|named)\\s+$`, 'iu');

/** Words that open a sentence as adjectives ("Old cluster", "New server", "Next release"): the noun after them is not about a name. */
const SENTENCE_ADJECTIVES = new Set(
  `new old next last first second third final latest current previous same other big small main default early late good bad great nice
  whole full half quick slow long short high low open closed shared local remote public private daily weekly monthly annual major minor
  initial original extra free total more less most best worst fresh own real hard soft dark light hot cold warm cool proper single
  double separate entire backup test staging prod production dev primary secondary`.split(/\s+/),
);

/**
 * "Priya (EM, …)", "Jonas Weber — platform": a role describing the name. Not "Mombasa: Mum in
 * Nyali" mid-line (a colon describes only a line's opening name), nor ", brother Juma" (the role
 * is the next name's), nor "(on-call app)".
 */
function hasRoleAfter(before: string, after: string): boolean {
  const role = PERSON_ROLE_AFTER.exec(after);
  if (!role) return false;
  if (/^\s*:/.test(after) && !/(?:^|\n)[ \t]*(?:[-*+][ \t]+)?(?:\*\*)?$/.test(before)) return false;
  return !/^[ \t]+(?:\p{Lu}|(?:app|apps|tool|service|bot|rota|schedule|channel|rotation)\b)/u.test(after.slice(role[0].length));
}

/** "Kilimani Stars 2 – 1 Riruta Rangers": teams either side of a score. */
const SCORE_AFTER = /^\s+\d{1,2}\s*[–—-]\s*\d{1,2}\s+\p{Lu}/u;
const SCORE_BEFORE = /(?:^|\s)\d{1,2}\s*[–—-]\s*\d{1,2}!*\s+$/;
/** What SCORE_BEFORE needs at its end (a digit or "!", then whitespace), asked without trying every position. */
function endsWithScore(before: string): boolean {
  const trimmed = before.trimEnd();
  if (trimmed.length === before.length) return false;
  const last = trimmed.charCodeAt(trimmed.length - 1);
  return (last >= 48 && last <= 57) || last === 33;
}

/** "BER 19:40 → LIS", "LIS→BER": a three-letter code in a flight's itinerary is an airport. */
function isAirportCode(label: string, before: string, after: string): boolean {
  if (!/^[A-Z]{3}$/.test(label)) return false;
  // A clock time next to it, or an arrow between two codes on a line about flying.
  if (/^\s*\d{1,2}:\d{2}\b/.test(after)) return true;
  const arrow = /^\s*(?:→|->)\s*[A-Z]{3}\b/.test(after) || /\b[A-Z]{3}\s*(?:→|->)\s*$/.test(before);
  return arrow && /\b(?:fl(?:y|ew|ight|ights|ying)|booked|out|back|return|landed|departs?|arrives?|layover|via)\b/i.test(before + after);
}

/** "Porto, Portugal", "Ghent, Belgium": a name followed by a country or a big city it lies in. */
function isFollowedByKnownPlace(label: string | undefined, after: string): boolean {
  // "Kobo Rails, Lagos" is a company in a city: only a one-word name reads as a town by this.
  if (label === undefined || label.includes(' ')) return false;
  const m = KNOWN_PLACE_AFTER.exec(after);
  return m !== null && knownNameType(m[1]!.replace(/\.$/, '')) === 'place';
}
/** "Lisbon (Graça)", "Berlin (Neukölln, …)": a name in a parenthesis right after a known city is a part of it. */
function isInsideKnownPlace(before: string): boolean {
  if (!before.trimEnd().endsWith('(')) return false; // `\(\s*$`, without trying every position
  const m = KNOWN_PLACE_BEFORE.exec(before.slice(-40));
  return m !== null && knownNameType(m[1]!) === 'place';
}
const KNOWN_PLACE_BEFORE = /(?:^|[^\p{L}])(\p{Lu}[\p{L}-]+(?:\s\p{Lu}[\p{L}-]+)?)\s*\(\s*$/u;
const KNOWN_PLACE_AFTER = /^,\s+(\p{Lu}[\p{L}.-]+(?:\s\p{Lu}[\p{L}-]+)?)(?![\p{L}\s]*:)/u;

/** "ssh atlas", "deployed to web-1", "rebooted the NAS": hosts. */
const MACHINE_BEFORE = /\b(?:ssh(?:ed)?(?:\s+(?:into|to))?|deploy(?:ed|ing|s)?\s+(?:on|to)|rebooted|reboot|provisioned|logged into|log into|hostname)\s+(?:the\s+)?$/i;
const MACHINE_LAST = cueWords('ssh sshed into to on rebooted reboot provisioned hostname the');
/** "the Atlas box", "Hestia server"… not "server" (a tool's "Postgres server"): words only hosts have. */
const MACHINE_AFTER = /^\s+(?:box|host|hostname|machine|vm|VM|nas|NAS|homelab|home server|node)\b/;
/** The words MACHINE_AFTER may start with (cueTail.ts). */
const MACHINE_HEAD = cueWords('box host hostname machine vm VM nas NAS homelab home node');

/** Words for what a person is to the writer or at work ("partner", "EM", "staff engineer"). */
const ROLES =
  'partner|wife|husband|girlfriend|boyfriend|spouse|fianc[eé]e?|friend|best friend|colleague|co-?worker|teammate|manager|boss|em|pm|tech lead|team lead|lead|' +
  '(?:staff |senior |principal |backend |frontend |platform |data |software |product |ux |ui )?(?:engineer|developer|designer|architect|scientist|analyst|researcher)|' +
  'sre|organi[sz]er|founder|co-?founder|ceo|cto|cfo|coo|vp|director|recruiter|intern|mentor|mentee|neighbou?r|landlord|landlady|roommate|flatmate|' +
  'doctor|dentist|therapist|physio|teacher|tutor|coach|trainer|nurse|vet|accountant|lawyer|contractor|consultant|freelancer|editor|agent|' +
  'mother|father|mom|mum|dad|parents?|sister|brother|sibling|son|daughter|kid|child|cousin|aunt|uncle|grandma|grandpa|grandmother|grandfather|niece|nephew|in-law|' +
  'maintainer|contributor|reviewer|on-call|owner of';

/** "brother Juma", "aunt Halima in Old Town": a relative named after the word for them. */
const KIN_WORDS = new Set(
  'mum mom mother dad father brother sister cousin aunt auntie uncle grandma grandmother grandpa grandfather niece nephew son daughter wife husband stepson stepdaughter'.split(' '),
);
/** The word right before a name (read from the end: cues run for every name). */
const LAST_WORD = /(?:^|[\s,:;(])(\p{L}+)[ \t]+$/u;
function isAfterKinWord(before: string): boolean {
  if (!/[ \t]$/.test(before)) return false;
  const m = LAST_WORD.exec(before.slice(-16));
  return m !== null && KIN_WORDS.has(m[1]!.toLowerCase());
}
/** "Dr. Hartmann", "Ms Okafor". */
const PERSON_TITLE_BEFORE = /\b(?:Dr|Mr|Mrs|Ms|Mx|Prof)\.?\s+$/;
const PERSON_TITLE_LAST = cueWords('dr mr mrs ms mx prof');
/** "Mika Lindqvist: partner, …", "Priya (EM, …)", "Jonas Weber — platform/SRE". */
const PERSON_ROLE_AFTER = new RegExp(`^\\s*(?::|\\(|—|–|,| - )\\s*(?:my |our |the |a |an |new |former |ex-)?(?:[\\w-]+/)?(?:${ROLES})\\b`, 'i');
/** "Dana's partner", "Sam's birthday": things only people have. */
const PERSON_POSSESSION_AFTER =
  /^['’]s\s+(?:partner|wife|husband|girlfriend|boyfriend|kids?|children|son|daughter|mom|mum|dad|mother|father|parents|sister|brother|family|birthday|wedding|baby|manager|boss|team|desk|laptop|handover|talk|idea|advice|suggestion|review|flight|visit|surgery|leave|house|flat|apartment|place|home|car|dog|cat|bike|room|friends?|party|phone|mom|mum|dad|husband|wife|boyfriend|girlfriend|cooking|recipe|funeral|graduation|school|job)\b/i;
/** "Mika and I", "Tomás & me": a person with the writer. */
const PERSON_AND_I_AFTER = /^\s+(?:and|&)\s+(?:I|me)\b/;

/** "engineer at Quillfin", "joined Acme", "client Northwind", "two people from Payouts". */
const ORGANISATION_BEFORE = new RegExp(
  `\\b(?:(?:${ROLES}|works?|worked|working|job|role|position|interview(?:ed|ing)?|internship|offer|contract|employed|hired)\\s+(?:at|with|for)|(?:people|folks|someone|somebody|colleagues|engineers|guys)\\s+(?:from|at)|joined|client|customer|vendor|supplier|acquired by|funded by|invoice (?:to|for))\\s+(?:the\\s+)?$`,
  'i',
);
const ORGANISATION_LAST = cueWords('at with for from joined client customer vendor supplier by to the');
/** "the Ledger team", "Acme Inc", "Stripe support", "Berlin Gophers meetup". */
const ORGANISATION_AFTER =
  /^\s+(?:team|squad|department|dept|support|sales|HQ|headquarters|customers|clients|staff|employees|leadership|board|org|contact|meetup|meetups|organi[sz]ers?|members|community|user group|club|account manager|account team|account rep)\b/;
/** The words ORGANISATION_AFTER may start with (cueTail.ts). */
const ORGANISATION_HEAD = cueWords('team squad department dept support sales HQ headquarters customers clients staff employees leadership board org contact meetup meetups organiser organisers organizer organizers members community user club account');

/**
 * "lives in Wedding", "flew to Lisbon", "weekend in Porto", "dinner with Tomás in Graça". Not
 * "moved to" or "moving from" alone: services move between hosts and tools too.
 */
const PLACE_BEFORE =
  /\b(?:(?:live|lives|lived|living|based|born|grew up|raised|flew|fly|flying|flight|flights|train|trains|drove|drive|driving|road trip|trip|travel(?:l?ed|l?ing)?|holiday|holidays|vacation|weekend|week|days|nights?|stay|stayed|staying|back|returned|returning|arrived?|arriving|landed|landing|relocat(?:e|ed|ing)|visit(?:ed|ing)?|walk(?:ed)?|hike|hiked|hiking|restaurant|café|cafe|bar|bakery|hotel|airbnb|apartment|flat|house|studio|office|park|beach|museum|academy|school|clinic|hospital|gym|church|hub|stadium|pitch|field|now)\s+(?:in|to|from|at|near|around|through)|(?:dinner|lunch|breakfast|brunch|drinks|coffee|concert|gig|class|walk)\b[^.;:!?\n]{0,30}\s+in|(?:dinner|lunch|breakfast|brunch|drinks|coffee)\s+at|(?:hours|the time|weather|rain|sunny|snow)\s+in|visiting|visited)\s+(?:the\s+)?$/i;
const PLACE_LAST = cueWords('in to from at near around through visiting visited the');
/** "walked Alfama to Graça", "walked the river to MAAT": where a walk or a ride goes is a place. */
const WALKED_TO_BEFORE = /\b(?:walked|walking|strolled|cycled|biked|hiked|drove)\s+(?:from\s+)?(?:the\s+)?[\p{L}'’-]+(?:\s+\p{Lu}[\p{L}'’-]*)?\s+to\s+(?:the\s+)?$/iu;
/** "the school field on Argwings Kodhek", "a café on Rua Augusta": a building on a street. */
const BUILDING_ON_BEFORE = /\b(?:restaurant|café|cafe|bar|bakery|hotel|apartment|flat|house|studio|office|shop|store|school|clinic|hospital|gym|church|field|pitch|grounds|stadium|dentist|vet|library|market)\s+on\s+(?:the\s+)?$/i;
const BUILDING_ON_LAST = cueWords('on the');
/** "Lisbon trip", "Kreuzberg apartment". */
const PLACE_AFTER = /^\s+(?:trips?|holiday|vacation|weekend|airport|neighbou?rhood|area|city centre|city center|old town|downtown|suburbs|hub|academy)\b/;
/** The words PLACE_AFTER may start with (cueTail.ts). */
const PLACE_HEAD = cueWords('trip trips holiday vacation weekend airport neighbourhood neighborhood area city old downtown suburbs hub academy');
/** "Moved to Berlin from Madrid": both ends of a move that names where from are places. */
const MOVE_TO_BEFORE = /\b(?:moved|moving|relocated|flew|drove|came)\s+(?:to|from)\s+$/i;
const MOVE_TO_LAST = cueWords('to from');
const FROM_PLACE_AFTER = /^\s+(?:from|to)\s+\p{Lu}\p{Ll}/u;
const MOVE_FROM_TO_BEFORE = /\b(?:moved|moving|relocated|flew|drove|came)\s+(?:to|from)\s+\p{Lu}[\p{L}'’-]*(?:\s\p{Lu}[\p{L}'’-]*)?\s+(?:from|to)\s+$/iu;

/** "reachable over Tailscale", "upgraded Postgres", "written in Elixir". */
const TOOL_BEFORE =
  /\b(?:using|uses|used|use|installed|install|installing|uninstalled|upgraded|upgrade|upgrading|downgraded|switched (?:from|to)|migrat(?:e|ed|ing) (?:from|to|off)|replaced|replacing|set up|setting up|configured|configure|configuring|reachable over|over ssh via|via|(?<!hours?\s)behind|written in|rewritten in|rewrite in|built (?:with|on)|powered by|self-host(?:ed|ing)?|pinned|bumped|tried|trying|moved (?:off|from)|moves off|moving off|backs? up with|backed up with|backup with)\s+$/i;
const TOOL_LAST = cueWords('using uses used use installed install installing uninstalled upgraded upgrade upgrading downgraded from to off replaced replacing up configured configure configuring over via behind in with on by host hosted hosting pinned bumped tried trying');
/** "rewrote the parser in Rust", "ported the CLI to Zig": a language or runtime (not "wrote the post in Lisbon": only rewriting and porting count). */
const LANGUAGE_BEFORE = /\b(?:rewr(?:ote|ite|ites|iting|itten)|re-?implement(?:ed|ing)?|port(?:ed|ing)?)\b[^.;:!?\n]{0,40}\s+(?:in|to)\s+$/i;
const LANGUAGE_LAST = cueWords('in to');
/** "atlas services: Forgejo, Miniflux, Immich": the members of a list of tools. */
const TOOL_LIST_BEFORE = /\b(?:services|tools|apps|stack|tech stack|dependencies|deps|libraries|libs|tooling|software|programs|plugins)\s*:\s*(?:[^.;:\n]{0,80},\s*)?$/i;
/** "Tailscale app", "Hugo version", "Postgres cluster", "Caddy config". */
const TOOL_AFTER =
  /^\s+(?:app|apps|cli|CLI|config|configs|configuration|container|containers|image|images|instance|instances|plugin|plugins|extension|extensions|server|daemon|package|packages|binary|docs|documentation|install|installation|upgrade|upgrades|version|versions|release notes|shortcode|shortcodes|module|modules|library|sdk|SDK|api|API|tailnet|cluster|clusters|dashboard|query|queries|schema|driver|runtime|toolchain|compiler|linter|bump|db|database|pool|pools|snapshot|snapshots|dataset|datasets|backup|backups)\b/;
/** The words TOOL_AFTER may start with (cueTail.ts). */
const TOOL_HEAD = cueWords('app apps cli CLI config configs configuration container containers image images instance instances plugin plugins extension extensions server daemon package packages binary docs documentation install installation upgrade upgrades version versions release shortcode shortcodes module modules library sdk SDK api API tailnet cluster clusters dashboard query queries schema driver runtime toolchain compiler linter bump db database pool pools snapshot snapshots dataset datasets backup backups');
/** "Postgres 16", "Debian 12", "Go 1.23", "iOS 19": a product and its version (not "v2.4", a release). */
const VERSION_AFTER = /^\s+\d{1,3}(?:\.\d+){0,2}(?!\d|[.,:/-]\d|\s*[–—-]\s*\d|%|\s*(?:%|h\b|min|ms\b|s\b|GB|MB|TB|KB|km|kg|people|pages|days|hours|minutes|weeks|months|years|EUR|USD|€|\$|x\b|×|of\b|and\b|to\b|→))/;
const DOTTED_VERSION_AFTER = /^\s+\d{1,3}\.\d+(?:\.\d+)?(?!\d|[.,:/-]\d|\s*[–—-]\s*\d|%|\s*(?:%|h\b|min|ms\b|s\b|GB|MB|TB|KB|km|kg|EUR|USD|€|\$|x\b|×))/;

/** "working on Atlas", "shipped Kestrel". */
const PROJECT_BEFORE = /\b(?:working on|worked on|work on|shipped|shipping|ship|launched|launching|release of|contribut(?:e|ed|ing) to|handover of|kicked off|kick-off for|roadmap for)\s+(?:the\s+)?$/i;
const PROJECT_LAST = cueWords('on shipped shipping ship launched launching of to off for the');
/** "the Atlas repo", "Kestrel project", "ledgerd v2.4". */
const PROJECT_AFTER = /^\s+(?:project|projects|repo|repos|repository|codebase|roadmap|milestone|launch|rewrite|backlog|v\d[\w.]*)\b/;
/** The words PROJECT_AFTER may start with (cueTail.ts). */
const PROJECT_HEAD = cueWords('project projects repo repos repository codebase roadmap milestone launch rewrite backlog v');
