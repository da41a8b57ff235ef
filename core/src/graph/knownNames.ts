import type { EntityType } from '../contract/index.js';
import { rememberedByWord } from './wordMemo.js';

/**
 * Widely known names whose type the words around them rarely state: software people write
 * about, companies and platforms, countries and large cities. Written from general knowledge,
 * not from any benchmark's notes. Names that are also everyday words or first names ("Swift",
 * "Rust", "Go", "Slack", "Notion", "Spring", "Florence", "Victoria") are left out on purpose:
 * for those only the context decides (typeCues.ts), so a person called Florence stays a person.
 */
export function knownNameType(label: string): EntityType | null {
  return knownType(label);
}
const knownType = rememberedByWord((label): EntityType | null => {
  const known = KNOWN.get(label.toLowerCase());
  if (known) return known;
  // "Priya Natarajan", "Mark D.": a known first name followed by a surname or an initial.
  const words = label.split(' ');
  if (words.length >= 2 && words.length <= 3 && KNOWN.get(words[0]!.toLowerCase()) === 'person') {
    if (words.slice(1).every((w) => /^\p{Lu}/u.test(w) && !KNOWN.has(w.toLowerCase()))) return 'person';
  }
  return null;
});

const TOOLS = `
python javascript typescript java kotlin ruby php perl scala elixir erlang haskell clojure ocaml zig fortran cobol matlab
lua julia webassembly wasm powershell bash zsh graphql html css sass scss sql nosql c++ c#
postgres postgresql mysql mariadb sqlite mongodb redis valkey memcached cassandra scylladb dynamodb couchdb clickhouse
elasticsearch opensearch solr neo4j influxdb timescaledb cockroachdb snowflake bigquery redshift duckdb supabase firebase
firestore pinecone qdrant weaviate milvus pgvector kafka rabbitmq zookeeper etcd minio
docker podman kubernetes k8s k3s helm terraform opentofu pulumi ansible nomad vagrant packer nginx caddy traefik haproxy
envoy istio tailscale wireguard openvpn zerotier headscale prometheus grafana jaeger sentry pagerduty opsgenie splunk kibana
logstash fluentd jenkins circleci buildkite argocd bazel gradle maven npm pnpm yarn deno node.js nodejs webpack
vite rollup esbuild babel eslint prettier jest vitest pytest playwright cypress selenium puppeteer storybook react vue
angular svelte sveltekit next.js nextjs nuxt astro gatsby jekyll eleventy django flask fastapi rails laravel symfony
nestjs tailwind bootstrap jquery redux zustand electron tauri flutter xcode vscode neovim emacs tmux git mercurial rsync
restic borg borgbackup rclone syncthing zfs btrfs systemd launchd homebrew nix nixos debian ubuntu fedora centos rhel
macos ios ipados watchos android linux freebsd openbsd proxmox esxi virtualbox qemu kvm truenas unraid opnsense pfsense
openwrt jellyfin plex nextcloud immich miniflux forgejo gitea vaultwarden bitwarden 1password keepassxc
obsidian logseq evernote discord jira confluence asana trello figma miro airtable postman jq ffmpeg imagemagick pandas numpy
scipy pytorch tensorflow keras jupyter airflow dbt dagster mlflow hadoop flink llama.cpp ollama langchain chatgpt copilot
sqlc pgx gorm prisma sequelize typeorm hibernate keycloak grpc protobuf websocket cloudflared certbot letsencrypt wordpress
drupal magento sidekiq celery resque pgbouncer patroni pg_upgrade pg_dump vacuumdb pgbackrest barman
ec2 s3 rds eks ecs ecr alb elb nlb cloudfront route53 sqs sns gke gcs gce aks cloud-sql cloud-run cloud-nat cloud-storage backblaze-b2 kubectl k9s
whatsapp telegram instagram gmail google-maps google-meet youtube tiktok wechat mpesa m-pesa duolingo strava
docker-compose github-actions home-assistant ruby-on-rails react-native spring-boot android-studio visual-studio vs-code google-sheets google-docs google-drive arch-linux
`;

const ORGANISATIONS = `
google alphabet microsoft apple amazon aws meta facebook netflix github gitlab atlassian stripe shopify cloudflare hetzner
digitalocean ovh ovhcloud heroku vercel netlify linode akamai fastly openai anthropic mozilla ibm oracle intel amd nvidia
samsung sony tesla uber airbnb spotify twitter linkedin dropbox salesforce adobe paypal twilio datadog hashicorp jetbrains
canonical redhat red-hat docker-inc gcp azure backblaze wasabi scaleway
fly.io
`;

const PLACES = `
afghanistan albania algeria andorra angola argentina armenia australia austria azerbaijan bahamas bahrain bangladesh
barbados belarus belgium belize benin bhutan bolivia bosnia botswana brazil brunei bulgaria burkina burundi cambodia
cameroon canada chile china colombia comoros congo croatia cuba cyprus czechia denmark djibouti dominica ecuador egypt
eritrea estonia eswatini ethiopia fiji finland france gabon gambia germany ghana greece grenada guatemala guinea
guyana haiti honduras hungary iceland india indonesia iran iraq ireland israel italy jamaica japan kazakhstan kenya
kiribati kosovo kuwait kyrgyzstan laos latvia lebanon lesotho liberia libya liechtenstein lithuania luxembourg madagascar
malawi malaysia maldives mali malta mauritania mauritius mexico micronesia moldova monaco mongolia montenegro morocco
mozambique myanmar namibia nauru nepal netherlands nicaragua niger nigeria norway oman pakistan palau palestine panama
paraguay peru philippines poland portugal qatar romania russia rwanda samoa senegal serbia seychelles singapore slovakia
slovenia somalia spain sudan suriname sweden switzerland syria taiwan tajikistan tanzania thailand togo tonga tunisia
turkey türkiye turkmenistan tuvalu uganda ukraine uruguay uzbekistan vanuatu venezuela vietnam yemen zambia zimbabwe
usa u.s. uk england scotland wales catalonia bavaria europe asia africa oceania antarctica scandinavia
alabama alaska arizona arkansas california colorado connecticut delaware florida georgia hawaii idaho illinois indiana iowa kansas
kentucky louisiana maine maryland massachusetts michigan minnesota mississippi missouri montana nebraska nevada new-hampshire new-jersey
new-mexico north-carolina north-dakota ohio oklahoma oregon pennsylvania rhode-island south-carolina south-dakota tennessee texas utah
vermont virginia washington-state west-virginia wisconsin wyoming ontario quebec québec alberta
london paris berlin madrid barcelona lisbon porto rome milan naples turin vienna prague budapest warsaw krakow kraków
amsterdam rotterdam brussels antwerp copenhagen stockholm oslo helsinki reykjavik dublin edinburgh glasgow manchester
liverpool birmingham bristol leeds munich münchen hamburg cologne köln frankfurt stuttgart düsseldorf leipzig dresden
zurich zürich geneva basel lausanne bern lyon marseille toulouse bordeaux lille nantes strasbourg seville valencia
bilbao athens istanbul ankara bucharest belgrade zagreb ljubljana bratislava tallinn riga vilnius kyiv kiev lviv
moscow minsk tbilisi yerevan baku tel-aviv jerusalem beirut amman cairo dubai doha riyadh tehran karachi lahore delhi
mumbai bangalore bengaluru chennai hyderabad kolkata pune dhaka kathmandu colombo bangkok hanoi saigon jakarta manila
kuala-lumpur seoul busan tokyo osaka kyoto yokohama beijing shanghai shenzhen guangzhou hong-kong taipei ulaanbaatar
 melbourne brisbane perth adelaide auckland wellington toronto montreal montréal vancouver ottawa calgary edmonton
winnipeg halifax seattle portland sacramento oakland los-angeles san-diego denver chicago detroit boston
philadelphia pittsburgh baltimore atlanta miami nashville minneapolis milwaukee cleveland cincinnati brooklyn manhattan
mexico-city guadalajara monterrey bogotá bogota medellín medellin lima quito caracas havana montevideo
buenos-aires são-paulo sao-paulo rio lagos nairobi accra addis-ababa johannesburg cape-town casablanca marrakech tunis
algiers dakar kampala kigali
new-york new-york-city nyc san-francisco sf washington-dc new-zealand south-africa south-korea north-korea saudi-arabia sri-lanka costa-rica united-states united-kingdom czech-republic el-salvador puerto-rico new-delhi st-petersburg rio-de-janeiro
`;

const GIVEN_NAMES = `
james john robert michael william david richard joseph thomas charles christopher daniel matthew anthony donald steven paul andrew joshua kenneth
kevin brian george timothy ronald edward jason jeffrey ryan jacob gary nicholas eric jonathan stephen larry justin scott brandon benjamin
samuel gregory alexander patrick raymond dennis jerry tyler aaron jose adam nathan henry zachary douglas peter kyle noah ethan jeremy
walter christian keith roger terry sean gerald carl dylan harold arthur lawrence jesse bryan billy bruce gabriel joe logan alan
juan albert willie elijah wayne randy vincent liam lucas oliver owen caleb isaac leo theo felix oscar simon victor dominic
sebastian tobias julian mary patricia jennifer linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley kimberly
emily donna michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen amy angela shirley anna brenda pamela
emma nicole helen samantha katherine christine debra rachel carolyn janet catherine maria heather diane ruth julie olivia joyce virginia kelly
lauren christina joan evelyn judith megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice jean
abigail alice judy sophia denise marilyn danielle beverly isabella theresa diana natalie brittany charlotte marie kayla alexis lori chloe zoe
ella mia ava nora clara lucy ellie sophie amelia harriet eleanor alicia monica vanessa erin tina leah jean-luc jean-pierre pierre
louis antoine nicolas julien mathieu guillaume thibault benoit benoît olivier etienne étienne francois françois rené rene yves gilles luc marc
sylvain laurent cedric cédric aurelien aurélien maxime baptiste remi rémi camille chloé léa manon juliette margaux amelie amélie elodie élodie
mathilde pauline céline celine sylvie nathalie isabelle brigitte sandrine valerie valérie aurelie aurélie emilie émilie solène solene anaïs anais inès
ines maëlle carlos jorge luis miguel alejandro javier diego pablo sergio andres andrés fernando ricardo rafael raul raúl manuel antonio
francisco eduardo enrique gonzalo ignacio alvaro álvaro iñigo inigo joaquin joaquín mateo  tomas tomás lucia lucía carmen pilar elena
marta paula laia nuria núria rocio rocío alba beatriz sofía valentina camila daniela joão joao pedro tiago thiago rodrigo gonçalo
goncalo rui nuno duarte vasco afonso inês mariana leonor catarina matteo lorenzo alessandro giovanni giuseppe francesco davide stefano paolo riccardo
federico giulia chiara francesca alessia martina giorgia elisa federica silvia valeria hans jürgen jurgen klaus wolfgang stefan markus matthias andreas
florian lukas jonas moritz niklas philipp christoph johannes katrin katharina anja sabine petra ursula birgit lena jana svenja frederik pieter
joris bram sander thijs jeroen maarten sanne femke lotte anouk lars erik sven nils anders magnus olaf henrik mikael mika
jussi juha pekka timo ingrid astrid sigrid freya linnea saga elin maja annika kirsten mette sanna piotr pawel paweł tomasz
krzysztof marek jakub michal michał lukasz łukasz agnieszka katarzyna magdalena joanna zofia dmitri dmitry ivan sergei sergey alexei alexey mikhail
nikolai andrei vladimir yuri olga tatiana natasha natalia irina svetlana ekaterina anastasia oksana yulia taras bohdan ondrej ondřej jiri jiří
tereza dragan nikola mohammed mohamed muhammad ahmed ahmad omar youssef yusuf ibrahim hassan hussein khalid karim samir tariq rami ziad
fatima aisha aïsha amira layla leila noor nour yasmin yasmine zainab mariam maryam huda salma rania dina lina reza mehdi
arash dariush darius cyrus parisa shirin farah nasrin roya mehmet mustafa emre burak cem deniz elif zeynep ayşe ayse selin
ece arjun rohan rahul vikram aditya amit anil sanjay rajesh ravi suresh vijay kiran pranav aarav vivek nikhil siddharth priya
priyanka ananya aditi anjali deepa divya kavya lakshmi meera neha pooja radha riya sneha shreya sunita swati wei ming hao
jie feng tao xin yan hui mei ling xiaoming xiaoyu jing hiroshi takashi kenji yuki haruto ren sota daiki kenta
shota akira satoshi takumi yuto yui aoi sakura emi haruka misaki naoko keiko yoko aiko rina kaori minjun jiho seojun
hyun jisoo jiwoo minji seoyeon soyeon eunji hyejin minh anh linh huong thao hung tuan duc chidi chinedu emeka obinna
tunde femi kemi ngozi chioma adaeze amara ifeoma folake bisi yemi kwame kofi ama akosua kwabena abebe tesfaye wanjiru wanjiku
njeri kamau otieno amani baraka zawadi yosef yossi avi noam eitan tamar noa shira yael
`;

const KNOWN = new Map<string, EntityType>();
/** In the place and tool lists a hyphen joins the words of one name ("buenos-aires"); first names keep theirs ("jean-luc"). */
const add = (list: string, type: EntityType): void => {
  for (const name of list.split(/\s+/).filter(Boolean)) KNOWN.set(type === 'person' ? name : name.replace(/-/g, ' '), type);
};
add(TOOLS, 'tool');
add(ORGANISATIONS, 'organization');
add(PLACES, 'place');
// A first name alone, or first and last ("Priya Raman"), see knownNameType.
add(GIVEN_NAMES, 'person');
// Hyphens above join words of one name; these names are hyphenated themselves.
for (const name of ['paperless-ngx', 'sqlite-vec', 'fluent-bit', 'objective-c', 'shopify-cli', 'pi-hole']) KNOWN.set(name, 'tool');
