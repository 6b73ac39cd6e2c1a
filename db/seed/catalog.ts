/**
 * The hand-written part of the demo catalogue: publishers, tags, keywords and
 * the 64 series with their names, descriptions, credits and the special
 * properties the tests rely on. Numbers that need no care (chapter counts,
 * popularity, prices) are derived from a seeded PRNG in build.ts.
 */
import type { Format } from './art';
import type { HintIcon } from '~/features/catalog';
import type { PromoDef } from './promo';

export type Lang = 'en' | 'pt' | 'both';

export type UpdateStatus =
  | 'COMPLETED'
  | 'HIATUS'
  | 'WEEKLY'
  | 'DAILY'
  | 'BI_WEEKLY'
  | 'MONTHLY'
  | 'COMING_SOON'
  | 'MONDAYS'
  | 'TUESDAYS'
  | 'WEDNESDAYS'
  | 'THURSDAYS'
  | 'FRIDAYS'
  | 'SATURDAYS'
  | 'SUNDAYS';

export interface PublisherDef {
  key: string;
  name: string;
  language: string;
  homepage: string | null;
  geoblocks: string[];
  /** Geoblocks every series of this publisher carries. */
  seriesGeoblocks: string[];
}

export const PUBLISHERS: PublisherDef[] = [
  { key: 'lantern', name: 'Lantern House Comics', language: 'en', homepage: 'https://lanternhouse.example', geoblocks: [], seriesGeoblocks: [] },
  { key: 'hoshizora', name: 'Hoshizora Press', language: 'ja', homepage: 'https://hoshizora.example', geoblocks: ['JP'], seriesGeoblocks: ['JP'] },
  { key: 'meridian', name: 'Meridian Licensing', language: 'en', homepage: null, geoblocks: [], seriesGeoblocks: ['US', 'CA', 'GB'] },
  { key: 'tidewater', name: 'Tidewater Digital', language: 'en', homepage: 'https://tidewater.example', geoblocks: [], seriesGeoblocks: [] },
  { key: 'aurora', name: 'Editora Aurora', language: 'pt-br', homepage: 'https://aurora.example', geoblocks: [], seriesGeoblocks: [] },
  { key: 'farol', name: 'Quadrinhos Farol', language: 'pt-br', homepage: null, geoblocks: [], seriesGeoblocks: [] },
];

export interface TagDef {
  slug: string;
  name: string;
  name_pt: string;
  color: string;
  primary: boolean;
  description: string;
}

export const TAGS: TagDef[] = [
  { slug: 'action', name: 'Action', name_pt: 'Ação', color: '#e74c3c', primary: true, description: 'Fights, chases and big set pieces.' },
  { slug: 'romance', name: 'Romance', name_pt: 'Romance', color: '#e84393', primary: true, description: 'Love stories, slow burns and first dates.' },
  { slug: 'fantasy', name: 'Fantasy', name_pt: 'Fantasia', color: '#8e44ad', primary: true, description: 'Magic, other worlds and impossible creatures.' },
  { slug: 'comedy', name: 'Comedy', name_pt: 'Comédia', color: '#f1c40f', primary: true, description: 'Stories that want you to laugh.' },
  { slug: 'drama', name: 'Drama', name_pt: 'Drama', color: '#3498db', primary: true, description: 'Characters under pressure and the choices they make.' },
  { slug: 'horror', name: 'Horror', name_pt: 'Terror', color: '#2c3e50', primary: true, description: 'Things that go bump in the night.' },
  { slug: 'sci-fi', name: 'Sci-Fi', name_pt: 'Ficção Científica', color: '#00b894', primary: false, description: 'Space, machines and the future.' },
  { slug: 'slice-of-life', name: 'Slice of Life', name_pt: 'Cotidiano', color: '#55efc4', primary: false, description: 'Everyday life, told with care.' },
  { slug: 'mystery', name: 'Mystery', name_pt: 'Mistério', color: '#6c5ce7', primary: false, description: 'Puzzles, clues and detectives.' },
  { slug: 'sports', name: 'Sports', name_pt: 'Esportes', color: '#e67e22', primary: false, description: 'Teams, rivals and the final match.' },
  { slug: 'supernatural', name: 'Supernatural', name_pt: 'Sobrenatural', color: '#a29bfe', primary: false, description: 'Ghosts, spirits and curses.' },
  { slug: 'historical', name: 'Historical', name_pt: 'Histórico', color: '#b7950b', primary: false, description: 'Stories set in the past.' },
  { slug: 'thriller', name: 'Thriller', name_pt: 'Suspense', color: '#c0392b', primary: false, description: 'Tension from the first page to the last.' },
  { slug: 'adventure', name: 'Adventure', name_pt: 'Aventura', color: '#16a085', primary: false, description: 'Journeys into the unknown.' },
  { slug: 'school', name: 'School Life', name_pt: 'Vida Escolar', color: '#fd79a8', primary: false, description: 'Classrooms, clubs and graduation.' },
];

export const KEYWORDS = [
  'dragons', 'time travel', 'revenge', 'magic school', 'found family', 'samurai', 'detectives', 'monsters',
  'space', 'cooking', 'volleyball', 'football', 'ghosts', 'reincarnation', 'villainess', 'royalty', 'pirates',
  'robots', 'witches', 'post-apocalyptic', 'small town', 'folklore', 'heist', 'martial arts', 'office', 'music',
  'road trip', 'lighthouse', 'festival', 'cyberpunk', 'trains', 'flowers',
];

export interface CampaignDef {
  name: string;
  discount: number;
  from: number;
  to: number;
  /** Days relative to now. */
  startsIn: number;
  endsIn: number;
}

export interface SeriesDef {
  name: string;
  /** Portuguese name of a series published in both languages. */
  pt?: string;
  /** Further alternative names. */
  alt?: string[];
  lang: Lang;
  format: Format;
  color: string;
  /** Tag slugs; the first is the main genre. */
  tags: string[];
  kw: string[];
  pub: string;
  author: string;
  artist?: string;
  status: UpdateStatus;
  desc: string;
  /** Chapters in the primary language (released and scheduled); derived when absent. */
  n?: number;
  /** Free first chapters (availability_strategy.starting_count); derived when absent. */
  free?: number;
  allFree?: boolean;
  adult?: boolean;
  state?: 'REMOVED' | 'BLOCKED';
  /** Chapter indexes after which two numbers are skipped (a gap of 3). */
  gaps?: number[];
  /** Extra decimal chapter numbers. */
  decimals?: number[];
  /** Scheduled future chapters in the primary language; derived for ongoing series when absent. */
  future?: number;
  /** The next chapter comes out in a few hours. */
  soon?: boolean;
  nameFormat?: string;
  /** The newest chapters cost 10-15 keys. */
  premium?: boolean;
  campaign?: CampaignDef;
  /** Icons from the one closed list (src/features/catalog/hints.ts); the build refuses others. */
  hints?: { text: string; icon: HintIcon }[];
  /** Chapters in Spanish (an extra language on neither site). */
  es?: number;
  ptLag?: number;
  ptDelayDays?: number;
  updateText?: string | null;
  popularity?: number;
  /** Its promotional visual (issue 30; the media are made by promo.ts); none when absent. */
  promo?: PromoDef;
  /** First pages of a locked chapter shown as a preview (series.preview_pages); 0 when absent. */
  preview?: number;
}

// Kept as data so the catalogue reads like a publisher's list.
export const SERIES: SeriesDef[] = [
  // ------------------------------------------------------------ MANGA
  {
    name: 'The Lantern Road', pt: 'A Estrada das Lanternas', lang: 'both', format: 'MANGA', color: '#c0392b',
    tags: ['fantasy', 'adventure', 'drama'], kw: ['road trip', 'folklore', 'found family'], pub: 'lantern',
    author: 'Kenji Aramaki', status: 'FRIDAYS', n: 64, free: 5, popularity: 96000,
    desc: 'A lamplighter\'s apprentice sets out along the old pilgrim road to relight the lanterns that keep the spirits asleep. Every village she passes has forgotten a different promise. Her only companion is a fox who insists he is a retired god.',
  },
  {
    name: 'Blade of the Quiet Moon', pt: 'Lâmina da Lua Silenciosa', lang: 'both', format: 'MANGA', color: '#34495e',
    tags: ['action', 'historical', 'drama'], kw: ['samurai', 'revenge', 'martial arts'], pub: 'lantern',
    author: 'Haruto Mizushima', artist: 'Aiko Tanabe', status: 'WEEKLY', n: 58, decimals: [12.5, 40.25], preview: 2,
    desc: 'A disgraced swordswoman hunts the five masters who burned her school. She fights only under the new moon, when no one can see her face. The last master on her list is the man who raised her.',
  },
  {
    name: 'Ashfall Academy', lang: 'en', format: 'MANGA', color: '#d35400',
    tags: ['action', 'school', 'fantasy'], kw: ['magic school', 'monsters'], pub: 'lantern',
    author: 'Ren Kuroda', status: 'TUESDAYS', nameFormat: 'Ch. {num}',
    desc: 'Ashfall Academy trains the students who guard the city from the volcano\'s fire spirits. Transfer student Daichi can\'t cast a single spell, but the spirits refuse to hurt him. The faculty would very much like to know why.',
  },
  {
    name: 'Crimson Tide Ronin', pt: 'Ronin da Maré Carmesim', lang: 'both', format: 'MANGA', color: '#b33771',
    tags: ['action', 'adventure', 'historical'], kw: ['pirates', 'samurai'], pub: 'lantern',
    author: 'Takeshi Ono', status: 'COMPLETED', n: 72, nameFormat: '{ord} Chapter',
    desc: 'A masterless samurai signs on with a pirate crew to pay off a debt he does not remember making. The crew is hunting a ship that sank two hundred years ago. Somehow it keeps leaving fresh wakes.',
  },
  {
    name: 'Spirit Kitchen Hanako', lang: 'en', format: 'MANGA', color: '#e67e22',
    tags: ['comedy', 'slice-of-life', 'supernatural'], kw: ['cooking', 'ghosts'], pub: 'lantern',
    author: 'Yui Sakamoto', status: 'SATURDAYS',
    desc: 'Hanako inherits her grandmother\'s tiny restaurant and its very particular customers, all of them ghosts. Each one wants a last meal they can remember. The health inspector is, unfortunately, very much alive.',
  },
  {
    name: 'Ninth Floor Exorcist', pt: 'O Exorcista do Nono Andar', lang: 'both', format: 'MANGA', color: '#6c5ce7',
    tags: ['horror', 'supernatural', 'mystery'], kw: ['ghosts', 'detectives', 'office'], pub: 'lantern',
    author: 'Sora Ishikawa', status: 'MONDAYS', n: 46, gaps: [19, 33],
    desc: 'The ninth floor of the Kanda Building does not appear on any blueprint. Office temp Mei is assigned there on her first day and finds a desk, a phone and a very long list of exorcisms overdue. Her predecessor left a note: do not answer after midnight.',
  },
  {
    name: 'Stardust Courier', lang: 'en', format: 'MANGA', color: '#0984e3',
    tags: ['sci-fi', 'adventure', 'comedy'], kw: ['space', 'found family'], pub: 'tidewater',
    author: 'Akira Fujimoto', status: 'BI_WEEKLY',
    promo: { type: 'ANIMATED_IMAGE', fit: 'CONTAIN', label: 'Any parcel, any planet', button: 'Ship it', background: '#001b3d', text: '#e0f2ff' },
    desc: 'The cheapest delivery service in the outer belt promises any parcel, any planet, no questions asked. Its pilot has a lot of questions. Its cargo this week is a sleeping princess in a refrigerator.',
  },
  {
    name: 'Kaiju Weather Report', pt: 'Previsão do Tempo Kaiju', lang: 'both', format: 'MANGA', color: '#00b894',
    tags: ['comedy', 'sci-fi', 'slice-of-life'], kw: ['monsters', 'office'], pub: 'lantern',
    author: 'Yui Sakamoto', status: 'COMPLETED', allFree: true, n: 32,
    desc: 'In a city where giant monsters pass through twice a week, the evening weather report is the most watched show on television. Rookie presenter Aoi has to forecast where they will step. She is usually wrong, and always on air.',
  },
  {
    name: 'The Paper Crane Pact', pt: 'O Pacto do Grou de Papel', lang: 'both', format: 'MANGA', color: '#fd79a8',
    tags: ['romance', 'drama', 'school'], kw: ['festival', 'small town'], pub: 'lantern',
    author: 'Mio Hasegawa', status: 'HIATUS',
    desc: 'Two childhood friends promised to fold a thousand paper cranes before the summer festival. Ten years later only one of them remembers the promise. The other has just moved back to town with nine hundred and ninety-nine cranes in a box.',
  },
  {
    name: 'Ghost Ward 13', lang: 'en', format: 'MANGA', color: '#2d3436',
    tags: ['horror', 'thriller', 'mystery'], kw: ['ghosts'], pub: 'lantern',
    author: 'Sora Ishikawa', artist: 'Daisuke Mori', status: 'COMPLETED',
    desc: 'Night nurse Keiko keeps a ward that was closed thirty years ago. The patients there never get better, and never leave. When a new admission arrives with her own name on the chart, she starts reading the old files.',
  },
  {
    name: 'Sakuragi Mountain Express', alt: ['Sakuragi Yama Kyuukou'], lang: 'en', format: 'MANGA', color: '#e17055',
    tags: ['slice-of-life', 'drama'], kw: ['trains', 'small town'], pub: 'hoshizora',
    author: 'Nanami Kudo', status: 'THURSDAYS',
    desc: 'The last steam train on the Sakuragi line runs once a day, with three passengers and one very stubborn conductor. The railway wants to close it by spring. The town has other plans.',
  },
  {
    name: 'Tides of Hoshizora', alt: ['Hoshizora no Shio'], lang: 'en', format: 'MANGA', color: '#74b9ff',
    tags: ['fantasy', 'romance'], kw: ['folklore', 'pirates'], pub: 'hoshizora',
    author: 'Nanami Kudo', artist: 'Kaito Shimizu', status: 'WEDNESDAYS',
    desc: 'On Hoshizora island the tide brings in fallen stars instead of shells. Collector Umi sells them to tourists until one of them opens its eyes. It says it is looking for the way home, and it needs a map only she can read.',
  },
  {
    name: 'Iron Lotus Detective', alt: ['Tetsu no Hasu Tantei'], lang: 'en', format: 'MANGA', color: '#636e72',
    tags: ['mystery', 'action'], kw: ['detectives', 'martial arts'], pub: 'hoshizora',
    author: 'Kaito Shimizu', status: 'COMPLETED',
    desc: 'A retired kung-fu champion opens a detective agency above a noodle shop. Her cases are small and her fees are smaller. Then the noodle shop\'s owner disappears.',
  },
  {
    name: 'Midnight Volleyball Club', pt: 'Clube de Vôlei da Meia-Noite', lang: 'both', format: 'MANGA', color: '#f39c12',
    tags: ['sports', 'school', 'comedy'], kw: ['volleyball'], pub: 'lantern',
    author: 'Ren Kuroda', status: 'SUNDAYS', nameFormat: 'Round {num}',
    desc: 'The gym is booked all day, so the worst volleyball team in the prefecture practises at midnight. They have six players, one ball and a janitor who used to play for the national team. The regional tournament is in three months.',
  },

  // ------------------------------------------------------------ COMIC
  {
    name: 'Harbor Lights', pt: 'Luzes do Porto', lang: 'both', format: 'COMIC', color: '#2e86de',
    tags: ['drama', 'mystery', 'slice-of-life'], kw: ['lighthouse', 'small town'], pub: 'lantern',
    author: 'Mara Ellison', artist: 'Theo Brandt', status: 'THURSDAYS', n: 40, free: 4, es: 6, popularity: 88000,
    desc: 'Every night the lighthouse keeper of Port Avery counts the ships that come home. Last night there was one ship too many. Its crew swear they left harbour forty years ago.',
  },
  {
    name: 'Ironwood', lang: 'en', format: 'COMIC', color: '#16a085',
    tags: ['fantasy', 'adventure'], kw: ['dragons', 'found family'], pub: 'lantern',
    author: 'Jonah Whitaker', status: 'COMPLETED',
    desc: 'Ironwood trees grow one ring of metal every century. A young forester discovers a sapling that grows one every night. The kingdom\'s armies want it; the dragon sleeping beneath its roots wants it more.',
  },
  {
    name: 'The Clockwork Sheriff', pt: 'O Xerife Mecânico', lang: 'both', format: 'COMIC', color: '#b7950b',
    tags: ['action', 'sci-fi', 'historical'], kw: ['robots'], pub: 'lantern',
    author: 'Jonah Whitaker', artist: 'Rosa Delgado', status: 'MONTHLY',
    desc: 'The town of Dry Creek elected a brass automaton as sheriff because nobody else wanted the job. It does not sleep, it does not drink and it cannot be bribed. The outlaws are running out of ideas.',
  },
  {
    name: 'Deadline City', lang: 'en', format: 'COMIC', color: '#2c3e50',
    tags: ['thriller', 'mystery'], kw: ['detectives', 'heist'], pub: 'meridian',
    author: 'Nora Quinlan', status: 'BI_WEEKLY', gaps: [14],
    desc: 'A night-shift reporter gets tomorrow\'s newspaper delivered to her desk every evening. The headlines always come true. Tonight\'s front page has her obituary on it.',
  },
  {
    name: 'Captain Nova and the Lost Signal', pt: 'Capitã Nova e o Sinal Perdido', lang: 'both', format: 'COMIC', color: '#e84393',
    tags: ['sci-fi', 'action', 'adventure'], kw: ['space', 'robots'], pub: 'tidewater',
    author: 'Marcus Bell', artist: 'Priya Raman', status: 'WEEKLY', premium: true,
    campaign: { name: 'Nova Week', discount: 0.5, from: 10, to: 30, startsIn: -3, endsIn: 11 },
    desc: 'Captain Nova has saved the galaxy eleven times, and nobody remembers any of them. A distress call from her own ship, sent ten years from now, sends her chasing her own future. It is not the future she wanted.',
  },
  {
    name: 'The Brass Menagerie', lang: 'en', format: 'COMIC', color: '#cd853f',
    tags: ['fantasy', 'mystery'], kw: ['robots', 'heist'], pub: 'lantern',
    author: 'Eliza Thorn', status: 'COMPLETED',
    desc: 'The royal zoo keeps mechanical animals that are said to be alive. When the brass tiger escapes, the zookeeper\'s daughter is the only one who can track it. She suspects it wants to be found.',
  },
  {
    name: 'Ravenmoor', lang: 'en', format: 'COMIC', color: '#4b4b6b',
    tags: ['horror', 'mystery', 'supernatural'], kw: ['witches', 'small town'], pub: 'lantern',
    author: 'Eliza Thorn', artist: 'Sam Okafor', status: 'WEDNESDAYS', gaps: [6, 30],
    campaign: { name: 'Ravenmoor Halloween Sale', discount: 0.25, from: 1, to: 60, startsIn: -10, endsIn: 20 },
    desc: 'The village of Ravenmoor has kept its witch in the tower for three hundred years. The new vicar thinks it is time to let her out. The villagers disagree, and so, strangely, does the witch.',
  },
  {
    name: 'Saltwater Saints', pt: 'Santos de Água Salgada', lang: 'both', format: 'COMIC', color: '#1abc9c',
    tags: ['drama', 'adventure'], kw: ['pirates', 'found family'], pub: 'lantern',
    author: 'Marcus Bell', status: 'FRIDAYS',
    campaign: { name: 'Summer Voyage Sale', discount: 0.5, from: 1, to: 20, startsIn: -60, endsIn: -30 },
    desc: 'A crew of retired smugglers buys a ferry to run tourists between two sleepy islands. Their old rivals have also retired to the islands. Neither side is very good at being retired.',
  },
  {
    name: 'Gravity Kids', lang: 'en', format: 'COMIC', color: '#a29bfe',
    tags: ['action', 'comedy', 'sci-fi'], kw: ['found family'], pub: 'tidewater',
    author: 'Dana Kowalski', status: 'MONDAYS',
    desc: 'Four teenagers wake up able to change the direction of gravity, but only for themselves. Their superhero careers begin on the ceiling of the school cafeteria. They end up there more often than they would like.',
  },
  {
    name: 'Night Shift at the Museum of Monsters', lang: 'en', format: 'COMIC', color: '#8e44ad',
    tags: ['comedy', 'horror'], kw: ['monsters', 'office'], pub: 'lantern',
    author: 'Dana Kowalski', artist: 'Theo Brandt', status: 'HIATUS',
    desc: 'The exhibits at the Museum of Monsters are not stuffed. Security guard Phil learns this on his first night. His second night is worse.',
  },
  {
    name: 'The Last Cartographer', pt: 'O Último Cartógrafo', lang: 'both', format: 'COMIC', color: '#795548',
    tags: ['adventure', 'fantasy', 'drama'], kw: ['road trip'], pub: 'lantern',
    author: 'Mara Ellison', status: 'SATURDAYS', preview: 3,
    promo: { type: 'ANIMATION', label: 'The map redraws itself', label_pt: 'O mapa se redesenha sozinho', button: 'Follow the map', button_pt: 'Siga o mapa', background: '#3e2723', text: '#fff8e1' },
    desc: 'The world changes shape every night, and only maps drawn by hand keep it in place. The last cartographer is old, tired and out of ink. His apprentice has never drawn a straight line in her life.',
  },
  {
    name: 'Wolves of the Copper Coast', lang: 'en', format: 'COMIC', color: '#d35400',
    tags: ['action', 'historical'], kw: ['revenge', 'pirates'], pub: 'meridian',
    author: 'Nora Quinlan', artist: 'Rosa Delgado', status: 'COMPLETED',
    desc: 'The copper mines made the coast rich and its miners poor. When the company hires mercenaries to break the strike, a pack of wolves comes down from the hills to meet them. Nobody knows who called them.',
  },
  {
    name: 'Thunder Alley', lang: 'en', format: 'COMIC', color: '#f1c40f',
    tags: ['sports', 'action'], kw: ['road trip'], pub: 'meridian',
    author: 'Marcus Bell', status: 'WEEKLY',
    desc: 'Street racers on the Thunder Alley circuit race for pink slips and pride. Mechanic Jo races for her father\'s garage. She has one season and one car held together with tape.',
  },

  // ------------------------------------------------------------ WEBTOON
  {
    name: 'Velvet Hours', lang: 'en', format: 'WEBTOON', color: '#8b0000',
    tags: ['romance', 'drama'], kw: ['music'], pub: 'tidewater', adult: true,
    author: 'Celeste Moreau', status: 'FRIDAYS',
    desc: 'A jazz singer and the club owner who hired her keep their arrangement strictly after hours. The city above the club is falling apart. Down in the velvet room, the rules are theirs to break.',
  },
  {
    name: 'Second Chance Florist', pt: 'A Floricultora da Segunda Chance', lang: 'both', format: 'WEBTOON', color: '#e84393',
    tags: ['romance', 'comedy', 'slice-of-life'], kw: ['flowers', 'small town'], pub: 'tidewater',
    author: 'Ha-eun Jung', artist: 'Min-jun Lee', status: 'WEEKLY', n: 52, free: 6, popularity: 92000,
    desc: 'After her wedding is called off, Lily spends her savings on a failing flower shop. The shop comes with a grumpy landlord who only buys flowers for funerals. Every week he buys one more bouquet than he needs.',
  },
  {
    name: 'My Roommate Is a Dragon', pt: 'Meu Colega de Quarto é um Dragão', lang: 'both', format: 'WEBTOON', color: '#27ae60',
    tags: ['comedy', 'fantasy', 'romance'], kw: ['dragons', 'found family'], pub: 'tidewater',
    author: 'Ha-eun Jung', status: 'WEDNESDAYS',
    desc: 'Rent in the city is impossible, so Theo answers an ad for a roommate with an unusually large apartment. The roommate is a dragon who hoards houseplants. The lease has a clause about fire.',
  },
  {
    name: 'The Villainess Retires Early', pt: 'A Vilã se Aposenta Cedo', lang: 'both', format: 'WEBTOON', color: '#9b59b6',
    tags: ['fantasy', 'romance', 'comedy'], kw: ['villainess', 'reincarnation', 'royalty'], pub: 'tidewater',
    author: 'Seo-yeon Park', artist: 'Ji-ho Kang', status: 'DAILY', n: 184, ptLag: 3, popularity: 99000,
    desc: 'Reborn as the villainess of her favourite novel, Duchess Adeline knows exactly how her story ends. Instead of scheming, she files for early retirement and opens a bakery in the countryside. The hero, the villain and the crown prince all seem to like bread.',
  },
  {
    name: 'Level Zero Hunter', pt: 'Caçador Nível Zero', lang: 'both', format: 'WEBTOON', color: '#0652dd',
    tags: ['action', 'fantasy'], kw: ['monsters', 'reincarnation'], pub: 'tidewater',
    author: 'Do-hyun Choi', status: 'DAILY', soon: true, es: 4, n: 70,
    promo: { type: 'VIDEO', label: 'Watch the level-down trailer', label_pt: 'Assista ao trailer do rebaixamento', button: 'Start hunting', button_pt: 'Comece a caçada', background: '#0b1a3a', text: '#ffffff' },
    desc: 'Every hunter awakens with a level. Min-seo awakened at zero, and the system refuses to let him level up. It does, however, let him level other people down.',
  },
  {
    name: 'Coffee & Curses', lang: 'en', format: 'WEBTOON', color: '#6f4e37',
    tags: ['comedy', 'supernatural', 'romance'], kw: ['witches', 'cooking'], pub: 'tidewater',
    author: 'Celeste Moreau', status: 'TUESDAYS',
    desc: 'The witch who runs the corner café curses one customer a day, as required by her contract with the café\'s previous owner. Today she cursed the health inspector. Tomorrow she has to fix it.',
  },
  {
    name: 'Heir of the Frozen Throne', pt: 'Herdeira do Trono Congelado', lang: 'both', format: 'WEBTOON', color: '#74b9ff',
    tags: ['fantasy', 'drama', 'action'], kw: ['royalty', 'revenge'], pub: 'tidewater',
    author: 'Seo-yeon Park', artist: 'Yuna Han', status: 'FRIDAYS', premium: true,
    promo: { type: 'IMAGE', label: 'Winter Festival: 30% off', label_pt: 'Festival de Inverno: 30% de desconto', background: '#0d2b45', text: '#ffffff' },
    campaign: { name: 'Winter Festival', discount: 0.3, from: 5, to: 40, startsIn: -5, endsIn: 25 },
    hints: [{ text: 'New chapters every Friday', icon: 'BELL' }],
    desc: 'The ice queen died without naming an heir, and her throne froze solid the moment she fell. Whoever thaws it will rule the north. The stable girl who touched it by accident has not stopped shivering since.',
  },
  {
    name: 'Lunch Break Legends', lang: 'en', format: 'WEBTOON', color: '#fdcb6e',
    tags: ['comedy', 'slice-of-life'], kw: ['office'], pub: 'tidewater', allFree: true,
    author: 'Dana Kowalski', status: 'MONDAYS',
    desc: 'Five office workers have forty-five minutes a day to be legendary. They spend it on quests for the perfect sandwich. The vending machine on the fourth floor is their final boss.',
  },
  {
    name: 'The Weather Witch of Elm Street', pt: 'A Bruxa do Tempo da Rua Elm', lang: 'both', format: 'WEBTOON', color: '#00cec9',
    tags: ['fantasy', 'slice-of-life'], kw: ['witches', 'small town'], pub: 'tidewater',
    author: 'Celeste Moreau', artist: 'Ha-eun Jung', status: 'BI_WEEKLY',
    desc: 'Old Mrs Pell on Elm Street has made the weather for the town since 1962. She is retiring, and her replacement is a twelve-year-old who can only make fog. The summer fair is in two weeks.',
  },
  {
    name: 'Return of the Sword Saint', pt: 'O Retorno do Santo da Espada', lang: 'both', format: 'WEBTOON', color: '#c23616',
    tags: ['action', 'fantasy', 'historical'], kw: ['martial arts', 'reincarnation', 'revenge'], pub: 'tidewater',
    author: 'Do-hyun Choi', artist: 'Ji-ho Kang', status: 'SATURDAYS', premium: true, n: 96,
    campaign: { name: 'Sword Saint Anniversary', discount: 0.5, from: 10, to: 40, startsIn: -2, endsIn: 12 },
    desc: 'The greatest swordsman of the murim died defending a traitor. He wakes up thirty years earlier, in the body of the weakest disciple of a ruined sect. This time he knows exactly who to trust.',
  },
  {
    name: 'Signal Lost', lang: 'en', format: 'WEBTOON', color: '#00a8ff',
    tags: ['sci-fi', 'thriller'], kw: ['space', 'post-apocalyptic'], pub: 'tidewater',
    author: 'Marcus Bell', status: 'THURSDAYS', premium: true,
    desc: 'The colony ship Meridian lost contact with Earth two hundred years ago. This morning, Earth called back. The voice on the line belongs to the ship\'s captain, who is standing in the room.',
  },
  {
    name: 'Letters to a Stranger', pt: 'Cartas para um Estranho', lang: 'both', format: 'WEBTOON', color: '#ff7675',
    tags: ['romance', 'drama'], kw: ['small town'], pub: 'tidewater',
    author: 'Min-jun Lee', status: 'COMPLETED',
    desc: 'A postwoman starts answering the letters addressed to a house that burned down years ago. The writer answers back. Neither of them knows the other is real.',
  },
  {
    name: 'Bloom in the Ruins', pt: 'Flor nas Ruínas', lang: 'both', format: 'WEBTOON', color: '#55efc4',
    tags: ['drama', 'sci-fi', 'romance'], kw: ['post-apocalyptic', 'flowers'], pub: 'tidewater',
    author: 'Yuna Han', status: 'WEEKLY',
    desc: 'Fifty years after the cities fell, a botanist walks the ruins planting seeds from the last seed vault. A robot built to demolish buildings follows her. It has started to leave the flowers standing.',
  },
  {
    name: 'Office Hours with a Demon', lang: 'en', format: 'WEBTOON', color: '#e74c3c',
    tags: ['comedy', 'supernatural'], kw: ['office', 'monsters'], pub: 'tidewater',
    author: 'Celeste Moreau', status: 'HIATUS',
    desc: 'A junior accountant summons a demon by mistaking a contract for a spreadsheet. The demon is bound to serve her until the end of the fiscal year. He is a surprisingly good accountant.',
  },
  {
    name: 'The Star Chef\'s Apprentice', pt: 'A Aprendiz da Chef Estrela', lang: 'both', format: 'WEBTOON', color: '#fab1a0',
    tags: ['slice-of-life', 'comedy', 'drama'], kw: ['cooking'], pub: 'tidewater',
    author: 'Ha-eun Jung', status: 'SUNDAYS',
    desc: 'Three-star chef Isabel Cruz has never kept an apprentice longer than a week. Junie, who cannot crack an egg, has lasted nine days. Nobody in the kitchen can work out why.',
  },
  {
    name: 'Skyline Runners', pt: 'Corredores do Horizonte', lang: 'both', format: 'WEBTOON', color: '#0fb9b1',
    tags: ['action', 'sports'], kw: ['cyberpunk'], pub: 'tidewater',
    author: 'Do-hyun Choi', status: 'MONTHLY',
    desc: 'In a city of glass towers, couriers run the rooftops to deliver what drones cannot. The fastest runner in the city has never lost a package. Today, the package is following her.',
  },
  {
    name: 'Ten Thousand Steps to Heaven', pt: 'Dez Mil Passos até o Céu', lang: 'both', format: 'WEBTOON', color: '#f6b93b',
    tags: ['fantasy', 'adventure', 'action'], kw: ['martial arts'], pub: 'tidewater',
    author: 'Ji-ho Kang', status: 'COMPLETED',
    hints: [{ text: 'Season 2 is coming soon — favourite the series to be notified', icon: 'BELL' }],
    desc: 'At the top of the mountain there is a gate, and whoever climbs ten thousand steps may ask the gods one question. Farm boy Lei has climbed nine thousand nine hundred. He has forgotten what he wanted to ask.',
  },
  {
    name: 'The Unwritten Atlas', lang: 'en', format: 'WEBTOON', color: '#778ca3',
    tags: ['adventure', 'fantasy'], kw: ['road trip'], pub: 'tidewater',
    author: 'Mara Ellison', status: 'COMING_SOON', n: 0, updateText: 'Coming soon',
    desc: 'An atlas with empty pages fills in one map for every journey its owner finishes. Its new owner has never left her home town. The first page has already started to draw itself.',
  },
  {
    name: 'Glass Crown', pt: 'Coroa de Vidro', lang: 'both', format: 'WEBTOON', color: '#dfe6e9',
    tags: ['romance', 'fantasy'], kw: ['royalty'], pub: 'tidewater', state: 'REMOVED',
    author: 'Yuna Han', status: 'COMPLETED', n: 30,
    desc: 'The princess wears a crown of glass that shatters if she tells a lie. Her fiancé has been lying to her since the day they met. The wedding is in seven days.',
  },
  {
    name: 'Hollow Signal', lang: 'en', format: 'WEBTOON', color: '#4a4a4a',
    tags: ['horror', 'sci-fi'], kw: ['ghosts'], pub: 'tidewater', state: 'BLOCKED',
    author: 'Nora Quinlan', status: 'COMPLETED', n: 24,
    desc: 'A late-night radio host takes a call from a listener who describes her studio perfectly. The listener is calling from inside the building. The building has been empty for a decade.',
  },
  {
    name: 'Penny & the Paper Moon', pt: 'Penny e a Lua de Papel', lang: 'both', format: 'WEBTOON', color: '#ffeaa7',
    tags: ['fantasy', 'comedy'], kw: ['festival', 'found family'], pub: 'tidewater',
    author: 'Min-jun Lee', status: 'COMING_SOON', n: 3, future: 3,
    desc: 'Penny cuts a moon out of paper to light her way home, and the real moon gets jealous. Now there are two moons over the town and the tides are very confused. Penny has to choose which one to keep.',
  },

  // ------------------------------------------------------------ Portuguese only
  {
    name: 'Coração de Aço', lang: 'pt', format: 'WEBTOON', color: '#2e86de',
    tags: ['action', 'sci-fi', 'drama'], kw: ['robots', 'found family'], pub: 'aurora',
    author: 'Lucas Andrade', artist: 'Beatriz Nogueira', status: 'FRIDAYS', n: 48, free: 5, popularity: 90000,
    desc: 'Num Rio de Janeiro do futuro, a mecânica Joana encontra um robô de combate desativado no ferro-velho do pai. Ele tem um coração humano batendo dentro do peito de aço. Os donos originais querem a peça de volta, custe o que custar.',
  },
  {
    name: 'Canção da Maré', lang: 'pt', format: 'COMIC', color: '#0abde3',
    tags: ['fantasy', 'romance', 'drama'], kw: ['folklore', 'music'], pub: 'aurora',
    author: 'Helena Cardoso', status: 'WEEKLY', gaps: [8],
    campaign: { name: 'Promoção de Verão', discount: 0.5, from: 1, to: 25, startsIn: -4, endsIn: 16 },
    desc: 'Toda noite de lua cheia, uma voz canta no mar de uma vila de pescadores no Ceará. A jovem violeira Iara decide responder à canção. A maré, desde então, sobe um pouco mais a cada dia.',
  },
  {
    name: 'O Sertão das Almas', lang: 'pt', format: 'COMIC', color: '#b8860b',
    tags: ['horror', 'historical', 'supernatural'], kw: ['ghosts', 'folklore'], pub: 'farol',
    author: 'Rafael Monteiro', status: 'COMPLETED',
    desc: 'Um vaqueiro atravessa o sertão levando uma carta para uma fazenda que não aparece em nenhum mapa. Pelo caminho, as almas dos que morreram na seca pedem carona. Nenhuma delas quer chegar ao destino.',
  },
  {
    name: 'Noites de São João', lang: 'pt', format: 'WEBTOON', color: '#e58e26',
    tags: ['romance', 'comedy'], kw: ['festival', 'small town'], pub: 'aurora',
    author: 'Camila Ribeiro', status: 'TUESDAYS',
    desc: 'Maria volta para Caruaru para ajudar a avó na barraca de quentão durante as festas juninas. O ex-namorado dela agora organiza a quadrilha da cidade. Nenhum dos dois sabe dançar forró direito.',
  },
  {
    name: 'A Guardiã do Farol', lang: 'pt', format: 'COMIC', color: '#3c6382',
    tags: ['mystery', 'drama'], kw: ['lighthouse'], pub: 'farol',
    author: 'Helena Cardoso', artist: 'Pedro Vasconcelos', status: 'MONTHLY',
    desc: 'Depois da morte do pai, Clara assume o farol de uma ilha no litoral de Santa Catarina. No diário dele, ela encontra a lista de navios que o farol salvou. O último nome da lista é o dela.',
  },
  {
    name: 'Capoeira Celestial', lang: 'pt', format: 'MANGA', color: '#ee5253',
    tags: ['action', 'sports', 'fantasy'], kw: ['martial arts', 'music'], pub: 'aurora',
    author: 'Thiago Barros', status: 'SATURDAYS',
    desc: 'Em Salvador, uma roda de capoeira abre um portal para o céu dos orixás toda vez que o berimbau toca certo. O aprendiz Dandinho toca sempre errado. Isso não impede os espíritos de descer para jogar.',
  },
  {
    name: 'Sabor de Jabuticaba', lang: 'pt', format: 'WEBTOON', color: '#5f27cd',
    tags: ['slice-of-life', 'romance'], kw: ['cooking', 'small town'], pub: 'aurora', allFree: true,
    author: 'Camila Ribeiro', status: 'COMPLETED',
    desc: 'Uma confeiteira de Minas Gerais herda um pé de jabuticaba que dá frutos o ano inteiro. A cidade inteira quer a receita da geleia dela. O vizinho só quer saber por que a árvore cresceu do lado dele do muro.',
  },
  {
    name: 'Cidade Submersa', lang: 'pt', format: 'COMIC', color: '#10ac84',
    tags: ['sci-fi', 'thriller'], kw: ['post-apocalyptic', 'cyberpunk'], pub: 'farol',
    author: 'Rafael Monteiro', artist: 'Pedro Vasconcelos', status: 'BI_WEEKLY',
    desc: 'Em 2090, metade de Recife está debaixo d\'água e os mergulhadores vivem de resgatar o que sobrou. A mergulhadora Tânia encontra um cofre que ainda transmite sinal. Alguém lá dentro está pedindo socorro.',
  },
  {
    name: 'Os Filhos do Trovão', lang: 'pt', format: 'MANGA', color: '#576574',
    tags: ['fantasy', 'action', 'adventure'], kw: ['folklore', 'dragons'], pub: 'aurora',
    author: 'Thiago Barros', artist: 'Beatriz Nogueira', status: 'WEDNESDAYS',
    desc: 'Três irmãos nascidos na mesma noite de tempestade descobrem que podem chamar os raios. O Tupã das lendas quer seus poderes de volta. Eles só querem chegar vivos ao fim do ensino médio.',
  },
  {
    name: 'Amor em Tempo de Chuva', lang: 'pt', format: 'WEBTOON', color: '#48dbfb',
    tags: ['romance', 'drama'], kw: ['music'], pub: 'aurora',
    author: 'Camila Ribeiro', artist: 'Lucas Andrade', status: 'HIATUS',
    desc: 'Em São Paulo chove todos os dias há um ano, e ninguém sabe por quê. Uma violoncelista e um meteorologista se conhecem dividindo um guarda-chuva. Quando estão juntos, o sol aparece.',
  },
  {
    name: 'A Lenda do Boto', lang: 'pt', format: 'COMIC', color: '#ff9ff3',
    tags: ['supernatural', 'romance', 'mystery'], kw: ['folklore'], pub: 'farol',
    author: 'Helena Cardoso', status: 'COMPLETED',
    desc: 'Na festa de São Pedro de uma cidade ribeirinha do Pará, um rapaz de chapéu branco tira todas as moças para dançar. A delegada Ana não acredita em lendas. Mas ele some sempre que ela tenta tirar o chapéu dele.',
  },
  {
    name: 'Estrelas de Várzea', lang: 'pt', format: 'MANGA', color: '#1dd1a1',
    tags: ['sports', 'comedy', 'drama'], kw: ['football', 'found family'], pub: 'aurora',
    author: 'Thiago Barros', status: 'SUNDAYS',
    desc: 'O pior time de futebol de várzea da zona leste de São Paulo ganha um técnico inesperado: um ex-craque da seleção que perdeu a memória. Ele não lembra o próprio nome, mas lembra de todas as jogadas. O campeonato começa no domingo.',
  },
  {
    name: 'Fantasmas da Avenida Paulista', lang: 'pt', format: 'WEBTOON', color: '#8395a7',
    tags: ['horror', 'comedy', 'supernatural'], kw: ['ghosts', 'office'], pub: 'aurora',
    author: 'Rafael Monteiro', artist: 'Camila Ribeiro', status: 'THURSDAYS',
    desc: 'O estagiário Bruno descobre que o prédio onde trabalha na Avenida Paulista é assombrado por executivos dos anos oitenta. Os fantasmas ainda batem ponto. E querem uma promoção.',
  },
  {
    name: 'Cangaço Cibernético', lang: 'pt', format: 'COMIC', color: '#ff6b6b',
    tags: ['sci-fi', 'action', 'historical'], kw: ['cyberpunk', 'revenge'], pub: 'farol',
    author: 'Pedro Vasconcelos', status: 'MONDAYS', premium: true,
    desc: 'No sertão de 2150, um bando de cangaceiros com braços mecânicos enfrenta as corporações que secaram os rios. Sua líder, Maria Bonita 3.0, nunca perdeu um duelo. Até encontrar a própria irmã do outro lado.',
  },
  {
    name: 'Diário de uma Feiticeira Atrasada', lang: 'pt', format: 'WEBTOON', color: '#c44569',
    tags: ['comedy', 'fantasy', 'school'], kw: ['witches', 'magic school'], pub: 'aurora',
    author: 'Beatriz Nogueira', status: 'WEEKLY',
    desc: 'Lívia chegou atrasada no dia da seleção da Escola de Magia e foi parar na turma dos alquimistas. Ela não sabe fazer uma poção sequer. Mas ninguém explode um caldeirão com tanto estilo.',
  },
  {
    name: 'Maré Vermelha', lang: 'pt', format: 'MANGA', color: '#b71540',
    tags: ['thriller', 'mystery', 'action'], kw: ['detectives', 'heist'], pub: 'farol',
    author: 'Rafael Monteiro', status: 'FRIDAYS',
    desc: 'Uma maré vermelha cobre a baía de Guanabara e, com ela, aparecem corpos de homens que ninguém reconhece. A perita Sônia percebe que todos têm a mesma tatuagem. Ela também tem uma, que nunca contou a ninguém.',
  },
];

/** Authors and artists; alt holds the name in its original script where there is one. */
export const PEOPLE_ALT: Record<string, string> = {
  'Kenji Aramaki': '荒巻健二',
  'Haruto Mizushima': '水島陽翔',
  'Aiko Tanabe': '田辺愛子',
  'Nanami Kudo': '工藤七海',
  'Seo-yeon Park': '박서연',
  'Ha-eun Jung': '정하은',
  'Do-hyun Choi': '최도현',
};
