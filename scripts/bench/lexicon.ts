/**
 * The benchmark's generated lexicon: real English word lists (people, places, tools, verbs,
 * nouns, adjectives) extended with thousands of coined words, each list ordered so that a
 * Zipf-like pick makes the first entries common and the tail rare.
 */
import { Rng } from './prng.js';

const words = (s: string): string[] => s.trim().split(/\s+/);

const PEOPLE = words(`
Sam Priya Alex Jordan Maria Chen Fatima Lukas Aisha Diego Nora Tom Mei Omar Elena Ravi Sofia Jonas
Hannah Kenji Leila Marco Grace Ibrahim Zoe Pavel Amara Felix Ines Mateo Yuki Olga Kwame Clara Hugo
Anika Rafael Sara Dmitri Lina Tariq Emma Noah Freya Arjun Beatriz Theo Nadia Oscar Ming Lars Camila
Viktor Rosa Emeka Julia Kai Ada Bruno Eva Sven Layla Pedro Ingrid Malik Tessa Rohan Greta Yusuf
Chloe Andrei Maya Benedikt Aurora Kofi Iris Stefan Lucia Hamid Vera Elias Naomi Gustav Selin Ahmed
Ruth Milan Keiko Dario Alma Tobias Nina Idris Mira Leon Paula Aziz Helga Joaquin Esme Bao Wanda
Caspar Dalia Eamon Farah Gideon Halima Ivo Jade Kasimir Lotte Mads Nell Orla Piet Quinn Rhea Silas
`);

const PLACES = words(`
office Berlin Lisbon warehouse Denver Toronto kitchen garage Oakland Madrid Osaka Nairobi Dublin
basement lab Seattle Porto Vienna Austin Kyoto Zurich studio Prague Melbourne Montreal Helsinki
Bogota Krakow Chicago datacenter Athens Singapore Edinburgh Boston Tallinn Valencia Hamburg Utrecht
Reykjavik Marseille Bristol Ljubljana Tbilisi Seville Gdansk Bergen Lagos Hanoi Quito Malmo Turin
cafeteria rooftop library attic greenhouse workshop lobby Granada Antwerp Riga Cork Nantes Bilbao
Cardiff Leipzig Genoa Aarhus Split Bruges Salzburg Verona Graz Lyon Lille Brno Tartu Kaunas Trieste
`);

const TOOLS = words(`
postgres nginx redis kafka docker kubectl grafana prometheus terraform ansible jenkins git elasticsearch
rabbitmq systemd cron vault consul haproxy mysql sqlite airflow spark jupyter vscode tmux ssh rsync
certbot cloudflared minio etcd traefik envoy loki tempo sentry celery gunicorn uvicorn webpack vite
pnpm yarn cargo rustup pyenv nvm helm argocd fluxcd podman buildkit caddy pgbouncer zookeeper clickhouse
duckdb metabase superset keycloak mattermost nextcloud syncthing borg restic wireguard tailscale pihole
homeassistant mosquitto zigbee2mqtt plex jellyfin backblaze rclone ffmpeg imagemagick pandoc obsidian
`);

const VERBS = words(`
fix/fixed move/moved decide/decided restart/restarted migrate/migrated review/reviewed deploy/deployed
plan/planned call/called book/booked cancel/cancelled update/updated write/wrote send/sent buy/bought
order/ordered test/tested debug/debugged check/checked clean/cleaned pay/paid renew/renewed schedule/scheduled
discuss/discussed draft/drafted finish/finished start/started rebuild/rebuilt upgrade/upgraded replace/replaced
rename/renamed archive/archived merge/merged split/split measure/measured document/documented pause/paused
resume/resumed approve/approved reject/rejected estimate/estimated sketch/sketched email/emailed ship/shipped
repair/repaired install/installed configure/configured monitor/monitored benchmark/benchmarked profile/profiled
refactor/refactored backup/backed-up restore/restored rotate/rotated revoke/revoked invite/invited visit/visited
cook/cooked bake/baked paint/painted read/read learn/learned teach/taught run/ran hike/hiked swim/swam
prune/pruned water/watered harvest/harvested compare/compared choose/chose postpone/postponed confirm/confirmed
negotiate/negotiated interview/interviewed hire/hired onboard/onboarded mentor/mentored present/presented
record/recorded transcribe/transcribed translate/translated summarize/summarized outline/outlined prototype/prototyped
`).map((pair) => {
  const [base, past] = pair.split('/');
  return { base: base!, past: (past ?? base!).replace('-', ' ') };
});

const NOUNS = words(`
meeting release database migration budget invoice dentist appointment birthday flight ticket backup server
deadline roadmap proposal contract report dashboard pipeline schedule review interview lease insurance
recipe garden bicycle laptop router printer keyboard charger battery heater boiler roof window fence
newsletter podcast workshop conference offsite retro standup demo sprint ticket bug incident outage alert
certificate password token credential license subscription renewal refund receipt payroll taxes pension
doctor vaccine prescription physio gym marathon race concert wedding dinner lunch party picnic vacation
apartment landlord plumber electrician mechanic tyre brake engine clutch visa passport embassy tutor class
course exam thesis chapter draft manuscript editor publisher grant mortgage loan savings account wallet
cache index query schema replica cluster node shard queue worker cronjob webhook endpoint gateway firewall
certificate disk volume snapshot kernel driver firmware sensor thermostat camera doorbell speaker lamp
playlist album guitar piano violin lesson recital painting sketchbook camera lens tripod drone map trail
tent kayak canoe ferry train bus car scooter parking garage storage moving box furniture couch desk chair
onboarding handbook wiki runbook playbook postmortem changelog milestone feature flag experiment survey
metric latency throughput quota limit capacity forecast estimate invoice vendor supplier shipment delivery
`);

const ADJECTIVES = words(`
new old urgent quick slow broken flaky stable noisy quiet shared private weekly monthly yearly annual
big small late early final rough careful messy clean expensive cheap remote local legacy temporary
important optional tricky simple manual automatic nightly daily hourly sunny rainy cold warm tired happy
second third first next last previous upcoming overdue pending blocked risky safe secure fragile robust
cozy crowded empty lovely awkward bright dark green yellow red blue wooden metal plastic digital paper
`);

const TOPIC_FOLDERS = words(`projects people meetings travel recipes health reading ops ideas finance home garden music work`);

const WEEKDAYS = words(`Monday Tuesday Wednesday Thursday Friday Saturday Sunday`);

const TIMES = words(`morning afternoon evening tonight tomorrow weekend noon midnight`);

const SYLLABLES = words(`
ka lo mi ven tor rus pel an dri qua zel mor fin bel tas sor vin gal cor ith dun ser pra lum nox
ber cal dor em fal gor hal isk jor kel lan mar nel ost pir quil ras sal tem ul var wen xan yor zim
bra cle dro fla gri plo sna tri vel zor ark eth ond umb ilt ask orn
`);

export interface Verb {
  base: string;
  past: string;
}

export interface Lexicon {
  people: string[];
  places: string[];
  projects: string[];
  tools: string[];
  verbs: Verb[];
  nouns: string[];
  adjectives: string[];
  /** Coined words that are mostly rare (the long tail of the vocabulary). */
  jargon: string[];
  topics: string[];
  weekdays: string[];
  times: string[];
}

function coin(rng: Rng, used: Set<string>, minSyl: number, maxSyl: number): string {
  for (;;) {
    let w = '';
    const n = rng.range(minSyl, maxSyl);
    for (let i = 0; i < n; i++) w += rng.pick(SYLLABLES);
    if (w.length >= 4 && !used.has(w)) {
      used.add(w);
      return w;
    }
  }
}

const capitalize = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** Builds the lexicon deterministically from a seed. */
export function buildLexicon(seed: number): Lexicon {
  const rng = new Rng(seed);
  const used = new Set<string>([...PEOPLE, ...PLACES, ...TOOLS, ...NOUNS, ...ADJECTIVES].map((w) => w.toLowerCase()));
  const shuffle = <T>(items: T[]): T[] => {
    for (let i = items.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [items[i], items[j]] = [items[j]!, items[i]!];
    }
    return items;
  };

  const projects = Array.from({ length: 320 }, () => capitalize(coin(rng, used, 2, 3)));
  const coinedTools = Array.from({ length: 240 }, () => {
    const w = coin(rng, used, 2, 3);
    return rng.chance(0.4) ? `${w}${rng.pick(['ctl', 'd', 'db', 'sync', 'io', 'kit'])}` : w;
  });
  const coinedPeople = Array.from({ length: 400 }, () => capitalize(coin(rng, used, 2, 3)));
  const coinedPlaces = Array.from({ length: 400 }, () => capitalize(coin(rng, used, 2, 4)));
  const jargon = Array.from({ length: 6000 }, () => coin(rng, used, 2, 4));

  return {
    // Real words first (common), coined ones after (the rare tail).
    people: [...shuffle([...PEOPLE]), ...coinedPeople],
    places: [...shuffle([...PLACES]), ...coinedPlaces],
    projects,
    tools: [...shuffle([...TOOLS]), ...coinedTools],
    verbs: shuffle([...VERBS]),
    nouns: shuffle([...new Set(NOUNS)]),
    adjectives: shuffle([...ADJECTIVES]),
    jargon,
    topics: TOPIC_FOLDERS,
    weekdays: WEEKDAYS,
    times: TIMES,
  };
}

export function lexiconSize(lex: Lexicon): number {
  const all = new Set<string>();
  for (const list of [lex.people, lex.places, lex.projects, lex.tools, lex.nouns, lex.adjectives, lex.jargon]) {
    for (const w of list) all.add(w.toLowerCase());
  }
  for (const v of lex.verbs) {
    all.add(v.base);
    all.add(v.past);
  }
  return all.size;
}
