/**
 * Invented worlds for the labelled graph benchmark: who and what exists in each. Two themes
 * tune the rules; the held-out theme is never looked at while tuning (its figures are reported
 * separately). Every name here is made up.
 */
export interface ThemePerson {
  first: string;
  last: string;
  handle: string;
}

export interface Theme {
  name: string;
  seed: number;
  people: ThemePerson[];
  organisations: string[];
  services: string[];
  hosts: string[];
  tools: string[];
  places: string[];
}

export const TUNING_THEMES: readonly Theme[] = [
  {
    name: 'platform-team',
    seed: 11,
    people: [
      { first: 'Dana', last: 'Okafor', handle: 'dana' },
      { first: 'Priya', last: 'Raman', handle: 'priya' },
      { first: 'Marco', last: 'Bellini', handle: 'marco' },
      { first: 'Sam', last: 'Reyes', handle: 'sreyes' },
      { first: 'Sam', last: 'Ortiz', handle: 'sortiz' },
      { first: 'Lena', last: 'Vogt', handle: 'lena' },
      { first: 'Kofi', last: 'Mensah', handle: 'kofi' },
    ],
    organisations: ['Acme Corp', 'Northwind GmbH', 'Bluefin Labs'],
    services: ['Kestrel', 'payments-gateway', 'Heron', 'ledgerd'],
    hosts: ['kube-east', 'kube-west', 'stage-01', 'db-02.internal'],
    tools: ['pnpm', 'Postgres', 'Redis', 'Valkey', 'Terraform', 'Grafana'],
    places: ['Lisbon', 'Berlin', 'Porto'],
  },
  {
    name: 'agency',
    seed: 23,
    people: [
      { first: 'Ines', last: 'Carvalho', handle: 'ines' },
      { first: 'Tomasz', last: 'Wójcik', handle: 'tomasz' },
      { first: 'Aiko', last: 'Tanaka', handle: 'aiko' },
      { first: 'Omar', last: 'Haddad', handle: 'omar' },
      { first: 'Greta', last: 'Lind', handle: 'greta' },
      { first: 'Ravi', last: 'Shah', handle: 'ravi' },
    ],
    organisations: ['Globex Inc', 'Umbra Ltd', 'Fernwood AG'],
    services: ['Atlas', 'checkout-web', 'Osprey', 'mailer'],
    hosts: ['web-03', 'edge-eu-1', 'build-box-2', 'cache-01.lan'],
    tools: ['Sentry', 'Kafka', 'NATS', 'Vite', 'restic', 'Docker'],
    places: ['Vienna', 'Madrid', 'Oslo'],
  },
];

export const HELD_OUT_THEME: Theme = {
  name: 'research-lab (held out)',
  seed: 37,
  people: [
    { first: 'May', last: 'Chen', handle: 'mayc' },
    { first: 'Jonas', last: 'Berg', handle: 'jonas' },
    { first: 'Yuki', last: 'Sato', handle: 'yuki' },
    { first: 'Femi', last: 'Adeyemi', handle: 'femi' },
    { first: 'Jonas', last: 'Keller', handle: 'jkeller' },
    { first: 'Clara', last: 'Novak', handle: 'clara' },
  ],
  organisations: ['Helix Biotech', 'Orbital Data GmbH', 'Quanta Inc'],
  services: ['Pipette', 'sample-tracker', 'Condor', 'labsync'],
  hosts: ['gpu-node-4', 'hpc-login-1', 'nas-02.local', 'lab-vm-7'],
  tools: ['Snakemake', 'Conda', 'DuckDB', 'Airflow', 'Prefect', 'MinIO'],
  places: ['Basel', 'Kyoto', 'Toronto'],
};

/**
 * The blind theme: its own world and its own writer (generateJournal.ts: paragraphs, other
 * sentence shapes and vocabulary), written without reading the extractor's rules. Never tuned on.
 */
export const BLIND_THEME: Theme = {
  name: 'hardware-startup journal (blind)',
  seed: 53,
  people: [
    { first: 'Nadia', last: 'Petrova', handle: 'nadia' },
    { first: 'Luis', last: 'Moreno', handle: 'lmoreno' },
    { first: 'Hana', last: 'Kim', handle: 'hana' },
    { first: 'Luis', last: 'Ferreira', handle: 'lferreira' },
    { first: 'Oskar', last: 'Lindqvist', handle: 'oskar' },
    { first: 'Amara', last: 'Obi', handle: 'amara' },
  ],
  organisations: ['Tessel Robotics', 'Brightwave Ltd', 'Kobalt Systems'],
  services: ['Firmhub', 'telemetry-ingest', 'Lantern', 'otaserver'],
  hosts: ['rack-b-12', 'edge-gw-3', 'ci-runner-5', 'files-01.office'],
  tools: ['Zephyr', 'ClickHouse', 'Mosquitto', 'Buildkite', 'Caddy', 'SQLite'],
  places: ['Tallinn', 'Lyon', 'Seoul'],
};
