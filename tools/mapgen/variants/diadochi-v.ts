/**
 * Diadochi V: the hand-written source of the reconstructed map, a generated
 * variant (the generator writes its variant.json too).
 *
 * Every province is anchored at a real place ([longitude, latitude]). Extra
 * seeds (points or polylines, also real places) shape the province when the
 * anchor alone would give a poor border; `weight` scales distances (below 1
 * grows the province). `npm run mapgen -- diadochi-v` turns this into
 * geometry.json, map.svg and variant.json. Reasons for the choices are in
 * maps/diadochi-v/README.md.
 */
import type { CentreSource, LonLat, MapSource, ProvinceSource, SeedShape } from '../source.ts';

export const VARIANT = {
  id: 'diadochi-v',
  name: 'Diadochi V',
  description:
    'Diadochi V by Dick Vedder: five powers (Carthage, Egypt, Macedonia, Rome, Syria) around the Mediterranean in 240 BC. ' +
    'Map reconstructed from real geography (see maps/diadochi-v/README.md).',
};

export const POWERS = [
  { id: 'Carthage', abbreviation: 'CTH', adjective: 'Carthaginian', colour: '#EE3377' },
  { id: 'Egypt', abbreviation: 'EGT', adjective: 'Egyptian', colour: '#009988' },
  { id: 'Macedonia', abbreviation: 'MAC', adjective: 'Macedonian', colour: '#0077BB' },
  { id: 'Rome', abbreviation: 'RMA', adjective: 'Roman', colour: '#CC3311' },
  { id: 'Syria', abbreviation: 'SYA', adjective: 'Syrian', colour: '#EE7733' },
];

export const RULES = {
  calendar: { startYear: 240, step: -1 as const, era: 'BC' },
  victory: { type: 'self-supporting-units' as const, count: 25 },
  maxFleetBuilds: 2,
  destroyCentres: true,
  loans: true,
};

/** Rule 2. */
export const START_UNITS: { power: string; type: 'army' | 'fleet'; at: string }[] = [
  { power: 'Carthage', type: 'fleet', at: 'Car' },
  { power: 'Carthage', type: 'army', at: 'Had' },
  { power: 'Carthage', type: 'army', at: 'New' },
  { power: 'Carthage', type: 'army', at: 'Gad' },
  { power: 'Egypt', type: 'fleet', at: 'Alx' },
  { power: 'Egypt', type: 'fleet', at: 'Cyp' },
  { power: 'Egypt', type: 'army', at: 'Pto' },
  { power: 'Macedonia', type: 'fleet', at: 'Kor' },
  { power: 'Macedonia', type: 'army', at: 'Lar' },
  { power: 'Macedonia', type: 'army', at: 'Pel' },
  { power: 'Rome', type: 'fleet', at: 'Nea' },
  { power: 'Rome', type: 'fleet', at: 'Rom' },
  { power: 'Rome', type: 'army', at: 'Bru' },
  { power: 'Rome', type: 'army', at: 'Rav' },
  { power: 'Syria', type: 'fleet', at: 'Ant' },
  { power: 'Syria', type: 'army', at: 'Arb' },
  { power: 'Syria', type: 'army', at: 'Sel' },
];

/** Rule 11 canals and rule 12 direct passages, with the two real points the drawn link joins. */
export const SPECIAL_LINKS: {
  kind: 'passage' | 'canal';
  between: string[];
  note: string;
  draw: LonLat[];
}[] = [
  {
    kind: 'canal',
    between: ['Alx', 'EGY', 'RED'],
    note: "Nile–Red Sea canal (Necho's and Ptolemy II's canal, Bubastis to Arsinoe)",
    draw: [
      [31.51, 30.57],
      [31.9, 30.55],
      [32.28, 30.57],
      [32.38, 30.25],
      [32.55, 29.97],
    ],
  },
  {
    kind: 'canal',
    between: ['Ath', 'AEG', 'ION'],
    note: 'Diolkos slipway across the Isthmus of Corinth',
    draw: [
      [22.89, 37.955],
      [22.95, 37.93],
      [23.0, 37.915],
    ],
  },
  {
    kind: 'passage',
    between: ['Gad', 'Mau'],
    note: 'Strait of Gibraltar (Fretum Gaditanum)',
    draw: [
      [-5.62, 36.12],
      [-5.5, 35.8],
    ],
  },
  {
    kind: 'passage',
    between: ['Nea', 'Syr'],
    note: 'Strait of Messina (Fretum Siculum)',
    draw: [
      [15.75, 38.05],
      [15.45, 38.22],
    ],
  },
  {
    kind: 'passage',
    between: ['Per', 'Thr'],
    note: 'Hellespont (Dardanelles), Abydos–Sestos',
    draw: [
      [26.5, 40.08],
      [26.3, 40.33],
    ],
  },
  {
    kind: 'passage',
    between: ['Nic', 'Thr'],
    note: 'Thracian Bosporus, Chalcedon–Byzantium',
    draw: [
      [29.15, 40.95],
      [28.88, 41.1],
    ],
  },
  {
    kind: 'passage',
    between: ['Khe', 'Col'],
    note: 'Cimmerian Bosporus (Strait of Kerch), Panticapaeum–Phanagoria',
    draw: [
      [36.35, 45.33],
      [36.85, 45.2],
    ],
  },
  {
    kind: 'passage',
    between: ['Sin', 'Pto'],
    note: 'Gulf of Suez (Heroopolite Gulf), Clysma crossing',
    draw: [
      [33.0, 29.25],
      [32.45, 29.35],
    ],
  },
];

/**
 * Out-of-play land and water, drawn but not part of any province: seeds of
 * background regions. Unseeded islands become sea; unseeded lakes become land.
 */
export const BACKGROUND: { land: SeedShape[]; water: SeedShape[]; areas: LonLat[][] } = {
  land: [
    [-8.0, 53.2], // Ireland
    [12.0, 56.0], // Scandinavia
    [16.0, 57.0],
  ],
  water: [
    [3.0, 54.0], // North Sea
    [2.2, 52.3],
    [-5.0, 53.5], // Irish Sea
    [-9.5, 51.2], // Celtic Sea approaches
    [-12.0, 50.5],
    [-13.0, 48.5],
    [18.0, 55.5], // Baltic
    [51.0, 42.0], // Caspian
    [51.0, 39.0],
    [50.0, 27.5], // Persian Gulf
    [48.9, 29.9],
  ],
  /** Land inside these polygons is out of play (the edges of the known world of the game). */
  areas: [
    // Sahara and the Libyan desert, south of the Atlas, the Fezzan and the oases.
    [
      [-14, 30.0],
      [-8.0, 30.8],
      [-4.0, 31.6],
      [0.5, 32.4],
      [3.5, 32.0],
      [5.5, 29.8],
      [8.5, 27.4],
      [11.5, 26.2],
      [16.5, 26.4],
      [20.5, 27.4],
      [23.5, 28.3],
      [25.0, 28.7],
      [26.5, 28.9],
      [28.0, 28.5],
      [29.5, 27.3],
      [30.6, 26.0],
      [31.8, 24.4],
      [33.6, 23.6],
      [35.2, 22.6],
      [35.5, 15],
      [-14, 15],
    ],
    // Arabia.
    [
      [37.4, 23.2],
      [38.6, 25.6],
      [39.1, 27.6],
      [39.9, 29.6],
      [41.3, 31.4],
      [43.4, 31.0],
      [45.4, 30.4],
      [46.8, 29.7],
      [47.9, 29.2],
      [52, 25],
      [52, 15],
      [38, 15],
    ],
    // Media and Persis, beyond the Zagros.
    [
      [48.3, 39.0],
      [48.1, 37.6],
      [47.8, 35.6],
      [48.3, 34.0],
      [49.0, 32.8],
      [49.8, 31.2],
      [50.3, 30.0],
      [53, 28],
      [53, 42],
    ],
    // Caucasus and the steppe beyond the Tanais.
    [
      [53, 42],
      [48.0, 41.4],
      [46.0, 41.0],
      [44.2, 41.2],
      [43.4, 42.5],
      [43.2, 43.6],
      [42.8, 44.6],
      [42.2, 45.8],
      [41.6, 47.2],
      [40.6, 48.4],
      [38.5, 49.2],
      [53, 49.2],
    ],
    // Sarmatia and Germania Magna, beyond the Danube, the Carpathians and the Rhine.
    [
      [53, 49.2],
      [38.5, 49.2],
      [35.0, 49.0],
      [31.0, 48.6],
      [27.5, 48.4],
      [24.0, 48.3],
      [21.5, 48.4],
      [19.2, 48.4],
      [17.3, 48.9],
      [15.0, 49.0],
      [12.8, 49.4],
      [10.8, 50.1],
      [9.2, 50.9],
      [8.0, 51.9],
      [6.8, 52.6],
      [5.3, 53.3],
      [4.0, 60],
      [53, 60],
    ],
  ],
};

/**
 * Narrow straits that the raster would close: painted as water (lon/lat
 * polylines) so that the seas on either side meet and the land stays apart.
 */
export const WATER_CUTS: LonLat[][] = [
  [
    [26.17, 40.02],
    [26.3, 40.1],
    [26.4, 40.2],
    [26.55, 40.35],
    [26.7, 40.42],
  ], // Dardanelles
  [
    [29.0, 41.0],
    [29.03, 41.07],
    [29.06, 41.12],
    [29.11, 41.2],
  ], // Bosporus
  [
    [15.6, 38.28],
    [15.63, 38.2],
    [15.6, 38.1],
  ], // Strait of Messina
  [
    [36.55, 45.4],
    [36.62, 45.3],
    [36.58, 45.15],
    [36.5, 45.05],
  ], // Kerch Strait
];

const s = 'sea' as const;
const l = 'land' as const;

export const PROVINCES: ProvinceSource[] = [
  /* ---------------- Seas ---------------- */
  {
    id: 'AEG',
    name: 'Aegean Sea',
    aliases: ['Aegean'],
    type: s,
    anchor: [24.9, 37.4],
    seeds: [
      [23.6, 40.1],
      [23.8, 39.2],
      [24.4, 38.4],
      [23.5, 37.7],
      [25.3, 36.3],
      [26.6, 36.6],
      [24.3, 39.6],
      [24.6, 40.3],
      [25.0, 39.0],
    ],
  },
  {
    id: 'AFR',
    name: 'African Sea',
    aliases: ['African'],
    type: s,
    anchor: [9.5, 37.9],
    seeds: [
      [7.5, 37.6],
      [5.5, 37.4],
      [11.2, 37.55],
      [8.0, 38.6],
      [12.2, 37.9],
    ],
  },
  {
    id: 'AIO',
    name: 'Aiolic Sea',
    aliases: ['Aeolic Sea', 'Aiolic', 'Aeolic'],
    type: s,
    anchor: [26.2, 39.0],
    seeds: [
      [25.7, 40.6],
      [25.9, 40.0],
      [26.3, 38.2],
      [26.7, 37.75],
      [26.6, 39.4],
    ],
  },
  {
    id: 'BAR',
    name: 'Barca Sea',
    aliases: ['Barca'],
    type: s,
    anchor: [22.5, 33.6],
    seeds: [
      [24.5, 32.6],
      [26.0, 33.8],
      [24.5, 34.5],
      [20.5, 32.8],
    ],
  },
  {
    id: 'EEU',
    name: 'East Euxine',
    aliases: ['Eastern Euxine'],
    type: s,
    anchor: [37.5, 43.0],
    seeds: [
      [40.5, 42.3],
      [36.8, 46.0],
      [35.7, 42.6],
      [38.0, 44.3],
    ],
  },
  {
    id: 'EGY',
    name: 'Egyptian Sea',
    type: s,
    anchor: [30.5, 32.2],
    seeds: [
      [32.5, 31.8],
      [28.3, 32.3],
      [31.5, 33.3],
    ],
  },
  {
    id: 'HEL',
    name: 'Hellespont',
    aliases: ['Hellespontus', 'Dardanelles'],
    type: s,
    anchor: [28.0, 40.7],
    unit: [27.55, 40.72],
    label: [28.55, 40.72],
    seeds: [
      [
        [26.3, 40.1],
        [26.5, 40.3],
        [26.9, 40.42],
      ],
      [
        [29.0, 41.0],
        [29.04, 41.08],
        [29.07, 41.14],
      ],
    ],
  },
  {
    id: 'IBS',
    name: 'Iberian Sea',
    aliases: ['Iberian'],
    type: s,
    anchor: [-3.5, 36.0],
    seeds: [
      [-5.1, 35.98],
      [-1.8, 36.1],
      [-2.5, 35.6],
    ],
  },
  {
    id: 'ION',
    name: 'Ionian Sea',
    aliases: ['Ionian'],
    type: s,
    anchor: [18.5, 37.5],
    seeds: [
      [18.3, 34.0],
      [19.0, 40.2],
      [17.2, 39.6],
      [16.8, 37.0],
      [20.0, 35.6],
      [21.6, 37.3],
      [
        [21.0, 38.32],
        [21.8, 38.32],
        [22.4, 38.2],
        [22.85, 38.05],
      ],
    ],
  },
  {
    id: 'ISS',
    name: 'Gulf of Issus',
    aliases: ['Issus', 'Gulf of Issos'],
    type: s,
    anchor: [35.9, 36.6],
    seeds: [
      [35.3, 36.15],
      [34.6, 36.4],
    ],
  },
  {
    id: 'LEV',
    name: 'Levantine Sea',
    aliases: ['Levantine'],
    type: s,
    anchor: [34.5, 33.4],
    seeds: [
      [34.0, 31.7],
      [34.4, 32.5],
      [35.3, 34.6],
      [34.3, 34.2],
    ],
  },
  {
    id: 'LIG',
    name: 'Ligurian Sea',
    aliases: ['Ligurian'],
    type: s,
    anchor: [8.6, 43.7],
    seeds: [
      [4.5, 43.0],
      [6.5, 42.6],
      [3.8, 42.0],
      [8.0, 42.9],
    ],
  },
  {
    id: 'MTA',
    name: 'Melita Sea',
    aliases: ['Melita'],
    type: s,
    anchor: [14.6, 35.6],
    seeds: [
      [12.6, 36.3],
      [11.6, 35.7],
      [16.0, 35.3],
      [13.3, 35.0],
      [12.7, 37.4],
      [13.6, 36.9],
    ],
  },
  {
    id: 'NAD',
    name: 'North Adriatic Sea',
    aliases: ['North Adriatic'],
    type: s,
    anchor: [14.6, 43.4],
    seeds: [
      [13.0, 44.9],
      [16.2, 42.6],
      [17.3, 42.2],
    ],
  },
  {
    id: 'NTY',
    name: 'North Tyrrhenian Sea',
    aliases: ['North Tyrrhenian'],
    type: s,
    anchor: [11.2, 41.4],
    seeds: [
      [10.2, 42.6],
      [10.5, 40.6],
    ],
  },
  {
    id: 'OAT',
    name: 'Oceanus Atlanticus',
    aliases: ['Atlantic', 'Atlantic Ocean'],
    type: s,
    anchor: [-10.5, 38.5],
    seeds: [
      [-9.0, 34.0],
      [-7.4, 36.4],
      [-5.9, 35.95],
      [-4.5, 45.0],
      [-2.8, 49.8],
      [1.3, 50.6],
      [-11.5, 43.5],
      [-10.2, 33.6],
    ],
  },
  {
    id: 'PAM',
    name: 'Pamphyllian Sea',
    aliases: ['Pamphylian Sea', 'Pamphylian', 'Pamphyllian'],
    type: s,
    anchor: [30.8, 36.0],
    seeds: [
      [28.6, 36.1],
      [32.8, 35.9],
      [30.0, 35.2],
    ],
  },
  {
    id: 'PIT',
    name: 'Pityusean Sea',
    aliases: ['Pityusean'],
    type: s,
    anchor: [0.8, 38.4],
    seeds: [
      [1.5, 40.3],
      [3.5, 38.3],
      [0.5, 36.7],
      [3.0, 37.3],
      [2.0, 39.7],
    ],
  },
  {
    id: 'RED',
    name: 'Red Sea',
    type: s,
    anchor: [35.5, 25.5],
    seeds: [
      [
        [32.56, 29.9],
        [32.7, 29.5],
        [33.0, 29.0],
        [33.5, 28.2],
      ],
      [
        [34.95, 29.45],
        [34.7, 28.6],
      ],
      [34.5, 27.0],
    ],
  },
  {
    id: 'SRT',
    name: 'Syrtis Gulf',
    aliases: ['Syrtis', 'Gulf of Syrtis'],
    type: s,
    anchor: [18.5, 31.6],
    seeds: [
      [11.0, 34.0],
      [12.5, 33.3],
      [15.5, 32.7],
      [19.5, 31.0],
      [17.0, 31.6],
    ],
  },
  {
    id: 'STY',
    name: 'South Tyrrhenian Sea',
    aliases: ['South Tyrrhenian'],
    type: s,
    anchor: [13.5, 39.5],
    seeds: [
      [14.8, 38.7],
      [11.2, 39.2],
      [13.0, 38.4],
    ],
  },
  {
    id: 'WEU',
    name: 'West Euxine',
    aliases: ['Western Euxine'],
    type: s,
    anchor: [31.0, 43.0],
    seeds: [
      [29.5, 45.6],
      [31.5, 41.6],
      [33.0, 44.0],
      [30.2, 44.5],
      [29.25, 41.35],
      [28.6, 41.8],
      [28.3, 42.5],
      [30.0, 41.4],
    ],
  },

  /* ---------------- Iberia ---------------- */
  // Lusitania holds the whole Atlantic coast to the Pyrenees (Gallaecia, Asturias, Cantabria): Iberia, single-coasted,
  // must not join the Atlantic to the Mediterranean (rule 11 names the only provinces whose coasts join two waters).
  {
    id: 'Lus',
    name: 'Lusitania',
    type: l,
    anchor: [-9.14, 38.72],
    seeds: [
      [-7.9, 39.3],
      [-8.0, 41.3],
      [-8.0, 42.6],
      [-7.5, 37.6],
      [-5.8, 43.3],
      [-3.8, 43.2],
      [-2.5, 43.2],
    ],
  },
  {
    id: 'Ibe',
    name: 'Iberia',
    type: l,
    anchor: [-0.88, 41.65],
    seeds: [
      [-2.44, 41.8],
      [-4.0, 40.0],
      [1.25, 41.12],
      [2.5, 42.1],
    ],
  },
  {
    id: 'Gad',
    name: 'Gades',
    aliases: ['Gadir', 'Cadiz'],
    type: l,
    anchor: [-6.29, 36.53],
    seeds: [
      [-6.0, 37.4],
      [-4.78, 37.88],
      [-5.6, 36.1],
    ],
  },
  {
    id: 'Mal',
    name: 'Malacca',
    aliases: ['Malaca', 'Malaga'],
    type: l,
    anchor: [-4.42, 36.72],
    seeds: [
      [-3.6, 37.18],
      [-2.6, 37.2],
    ],
  },
  {
    id: 'New',
    name: 'New Carthage',
    aliases: ['Carthago Nova', 'Nova Carthago', 'Cartagena'],
    type: l,
    anchor: [-0.99, 37.6],
    seeds: [
      [-1.8, 38.3],
      [-1.2, 38.6],
    ],
  },
  {
    id: 'Sag',
    name: 'Sagumtum',
    aliases: ['Saguntum', 'Sagunto'],
    type: l,
    anchor: [-0.27, 39.68],
    seeds: [
      [-1.0, 40.2],
      [0.2, 40.6],
    ],
  },

  /* ---------------- Gaul and Germany ---------------- */
  {
    id: 'Aqu',
    name: 'Aquitania',
    aliases: ['Aquitaine'],
    type: l,
    anchor: [-0.58, 44.84],
    seeds: [
      [1.44, 43.6],
      [3.0, 43.18],
      [-0.6, 43.5],
      [0.5, 45.6],
    ],
    coasts: { wc: { name: 'West Coast', seas: ['OAT'] }, sc: { name: 'South Coast', seas: ['LIG'] } },
  },
  {
    id: 'WCe',
    name: 'West Celtica',
    type: l,
    anchor: [-1.55, 47.22],
    seeds: [
      [-3.0, 48.1],
      [0.69, 47.39],
      [-0.5, 48.5],
    ],
  },
  {
    id: 'ECe',
    name: 'East Celtica',
    type: l,
    anchor: [2.35, 48.86],
    seeds: [
      [3.28, 48.2],
      [4.04, 46.92],
      [2.4, 47.1],
    ],
  },
  {
    id: 'Lug',
    name: 'Lugendensis',
    aliases: ['Lugdunensis'],
    type: l,
    anchor: [4.83, 45.76],
    seeds: [
      [5.37, 43.3],
      [4.63, 43.68],
      [3.1, 45.7],
      [6.5, 43.6],
    ],
  },
  {
    id: 'Bel',
    name: 'Belgica',
    type: l,
    anchor: [4.03, 49.25],
    seeds: [
      [2.3, 49.9],
      [5.0, 50.3],
      [3.5, 50.6],
      [1.0, 49.6],
    ],
  },
  {
    id: 'LGr',
    name: 'Lower Germany',
    aliases: ['Germania Inferior'],
    type: l,
    anchor: [6.96, 50.94],
    seeds: [
      [5.5, 51.9],
      [7.5, 51.8],
    ],
  },
  {
    id: 'UGr',
    name: 'Upper Germany',
    aliases: ['Germania Superior'],
    type: l,
    anchor: [8.27, 50.0],
    seeds: [
      [7.75, 48.58],
      [9.4, 49.3],
      [7.3, 47.5],
    ],
  },
  {
    id: 'Rha',
    name: 'Rhaetia',
    aliases: ['Raetia'],
    type: l,
    anchor: [10.9, 48.37],
    seeds: [
      [9.53, 46.85],
      [11.4, 47.2],
      [10.0, 47.6],
    ],
  },
  {
    id: 'Nor',
    name: 'Noricum',
    type: l,
    anchor: [14.37, 46.7],
    seeds: [
      [14.47, 48.2],
      [13.0, 47.5],
      [15.6, 47.1],
    ],
  },
  {
    id: 'Pan',
    name: 'Pannonia',
    type: l,
    anchor: [18.23, 46.07],
    seeds: [
      [19.05, 47.56],
      [16.9, 48.1],
      [19.6, 45.0],
      [16.37, 45.48],
    ],
  },

  /* ---------------- Italy and the islands ---------------- */
  {
    id: 'Cis',
    name: 'Cisalpine Gaul',
    aliases: ['Gallia Cisalpina', 'Cisalpina'],
    type: l,
    anchor: [9.19, 45.46],
    seeds: [
      [8.93, 44.41],
      [9.7, 45.05],
      [7.68, 45.07],
      [10.9, 45.4],
    ],
  },
  {
    id: 'Ven',
    name: 'Venetia',
    type: l,
    anchor: [11.88, 45.41],
    seeds: [
      [13.37, 45.77],
      [13.9, 45.2],
      [12.6, 46.2],
    ],
  },
  {
    id: 'Rav',
    name: 'Ravenna',
    type: l,
    anchor: [12.2, 44.42],
    seeds: [
      [11.34, 44.49],
      [12.57, 44.06],
      [13.5, 43.6],
    ],
  },
  {
    id: 'Ete',
    name: 'Etruria',
    type: l,
    anchor: [11.95, 43.02],
    seeds: [
      [10.4, 43.72],
      [11.25, 43.77],
      [10.6, 42.95],
      [11.6, 42.5],
    ],
  },
  {
    id: 'Rom',
    name: 'Rome',
    aliases: ['Roma'],
    type: l,
    anchor: [12.49, 41.89],
    seeds: [
      [12.29, 41.75],
      [13.25, 41.29],
      [12.8, 42.4],
      [12.74, 42.73],
    ],
  },
  {
    id: 'Ben',
    name: 'Beneventum',
    aliases: ['Benevento'],
    type: l,
    anchor: [14.78, 41.13],
    seeds: [
      [14.9, 41.8],
      [14.4, 42.2],
      [13.85, 42.12],
      [13.6, 42.85],
    ],
  },
  {
    id: 'Nea',
    name: 'Neapolis',
    aliases: ['Naples'],
    type: l,
    anchor: [14.25, 40.84],
    seeds: [
      [
        [15.0, 40.42],
        [15.8, 40.0],
        [16.25, 39.3],
        [16.2, 38.6],
        [15.75, 38.15],
      ],
      [17.12, 39.08],
    ],
  },
  {
    id: 'Bru',
    name: 'Brudisium',
    aliases: ['Brundisium', 'Brindisi'],
    type: l,
    anchor: [17.94, 40.64],
    seeds: [
      [17.24, 40.47],
      [16.07, 41.22],
      [15.9, 41.6],
      [18.3, 40.1],
    ],
  },
  {
    id: 'Sar',
    name: 'Sardinia',
    type: l,
    anchor: [9.11, 39.22],
    seeds: [
      [9.0, 40.3],
      [9.51, 42.1],
      [9.0, 42.2],
      [8.8, 41.6],
    ],
  },
  {
    id: 'Pal',
    name: 'Palermo',
    aliases: ['Panormus', 'Panormos'],
    type: l,
    anchor: [13.36, 38.12],
    seeds: [
      [12.44, 37.8],
      [13.1, 37.6],
    ],
  },
  {
    id: 'Syr',
    name: 'Syracuse',
    aliases: ['Syracusae', 'Syrakousai', 'Siracusa'],
    type: l,
    anchor: [15.29, 37.07],
    seeds: [
      [15.55, 38.19],
      [15.09, 37.5],
      [13.58, 37.31],
      [14.3, 37.2],
    ],
  },

  /* ---------------- Balkans and the steppe ---------------- */
  {
    id: 'Ill',
    name: 'Illyria',
    aliases: ['Illyricum'],
    type: l,
    anchor: [19.51, 42.07],
    seeds: [
      [16.48, 43.54],
      [19.45, 41.31],
      [17.5, 44.0],
      [15.5, 44.6],
      [18.5, 43.5],
    ],
  },
  {
    id: 'Epi',
    name: 'Epirus',
    aliases: ['Epeiros'],
    type: l,
    anchor: [20.79, 39.55],
    seeds: [
      [19.47, 40.72],
      [20.98, 39.16],
      [20.3, 40.2],
    ],
  },
  {
    id: 'Pel',
    name: 'Pella',
    type: l,
    anchor: [22.52, 40.76],
    seeds: [
      [23.85, 40.82],
      [22.94, 40.64],
      [21.33, 41.01],
      [23.3, 40.3],
    ],
  },
  {
    id: 'Lar',
    name: 'Larissa',
    aliases: ['Larisa'],
    type: l,
    anchor: [22.42, 39.64],
    seeds: [
      [22.93, 39.35],
      [22.5, 38.48],
      [21.83, 38.39],
      [21.66, 38.56],
      [23.32, 38.32],
      [23.6, 38.46],
      [23.79, 38.39],
      [24.42, 38.02],
      [23.2, 38.9],
    ],
    coasts: { ec: { name: 'East Coast', seas: ['AEG'] }, sc: { name: 'South Coast', seas: ['ION'] } },
  },
  {
    id: 'Ath',
    name: 'Athens',
    aliases: ['Athenae', 'Athenai'],
    type: l,
    anchor: [23.73, 37.98],
    seeds: [
      [23.35, 38.0],
      [23.18, 38.07],
      [
        [22.9, 37.95],
        [22.97, 37.925],
        [23.05, 37.93],
      ],
      [23.96, 38.15],
      [24.02, 37.7],
    ],
  },
  {
    id: 'Kor',
    name: 'Korinth',
    aliases: ['Corinth', 'Corinthus', 'Korinthos'],
    type: l,
    anchor: [22.88, 37.905],
    seeds: [
      [22.73, 37.63],
      [22.43, 37.07],
      [22.13, 37.4],
      [21.63, 37.64],
      [21.73, 38.25],
    ],
  },
  {
    id: 'Thr',
    name: 'Thrace',
    aliases: ['Thracia'],
    type: l,
    anchor: [24.75, 42.15],
    seeds: [
      [28.98, 41.01],
      [26.75, 40.5],
      [24.97, 40.95],
      [26.9, 41.7],
      [27.5, 42.5],
      [27.7, 42.43],
      [28.0, 41.6],
      [28.6, 41.3],
    ],
  },
  {
    id: 'Moe',
    name: 'Moesia',
    type: l,
    anchor: [24.47, 43.7],
    seeds: [
      [21.9, 43.32],
      [27.27, 44.1],
      [27.9, 43.2],
      [28.6, 44.6],
    ],
  },
  {
    id: 'Dac',
    name: 'Dacia',
    type: 'impassable',
    anchor: [23.3, 45.6],
    seeds: [
      [25.0, 46.6],
      [25.5, 44.8],
      [27.0, 47.2],
      [22.0, 47.0],
    ],
  },
  {
    id: 'Scy',
    name: 'Scythia',
    type: l,
    anchor: [31.9, 46.69],
    seeds: [
      [30.2, 46.4],
      [33.5, 46.9],
      [35.3, 46.9],
      [32.5, 47.5],
    ],
    coasts: { wc: { name: 'West Coast', seas: ['WEU'] }, ec: { name: 'East Coast', seas: ['EEU'] } },
  },
  {
    id: 'Khe',
    name: 'Kherson',
    aliases: ['Chersonesus'],
    type: l,
    anchor: [33.49, 44.61],
    seeds: [
      [36.47, 45.35],
      [34.1, 44.95],
      [33.5, 45.5],
      [35.4, 45.1],
    ],
  },
  {
    id: 'Mae',
    name: 'Maeotis',
    type: l,
    anchor: [39.27, 47.27],
    seeds: [
      [38.2, 46.3],
      [40.5, 45.8],
      [37.8, 47.3],
      [39.0, 45.3],
    ],
  },
  {
    id: 'Col',
    name: 'Colchis',
    aliases: ['Kolchis'],
    type: l,
    anchor: [41.67, 42.15],
    seeds: [
      [
        [37.0, 45.2],
        [37.3, 44.9],
        [38.0, 44.5],
        [39.0, 44.0],
        [40.0, 43.4],
        [41.0, 42.9],
      ],
      [42.5, 42.3],
    ],
  },

  /* ---------------- Asia Minor ---------------- */
  {
    id: 'Per',
    name: 'Pergamum',
    aliases: ['Pergamon', 'Pergamos'],
    type: l,
    anchor: [27.18, 39.13],
    seeds: [
      [26.41, 40.15],
      [26.24, 39.96],
      [27.88, 40.38],
      [27.04, 38.76],
      [28.2, 39.6],
    ],
  },
  {
    id: 'Nic',
    name: 'Nicea',
    aliases: ['Nicaea', 'Nikaia'],
    type: l,
    anchor: [29.72, 40.43],
    weight: 0.9,
    seeds: [
      [29.05, 41.0],
      [29.92, 40.77],
      [31.5, 41.28],
      [29.06, 40.18],
      [30.6, 40.9],
    ],
  },
  {
    id: 'Eph',
    name: 'Ephesus',
    aliases: ['Ephesos'],
    type: l,
    anchor: [27.34, 37.94],
    seeds: [
      [27.28, 37.53],
      [27.42, 37.04],
      [28.04, 38.48],
      [28.3, 37.3],
      [29.33, 36.36],
      [27.14, 38.42],
    ],
  },
  {
    id: 'Phr',
    name: 'Phrygia',
    type: l,
    anchor: [30.17, 38.07],
    seeds: [
      [30.52, 39.78],
      [30.48, 38.52],
      [29.5, 39.0],
    ],
  },
  {
    id: 'Gal',
    name: 'Galatia',
    type: l,
    anchor: [32.86, 39.93],
    seeds: [
      [31.99, 39.65],
      [34.4, 39.9],
      [33.5, 39.2],
    ],
  },
  {
    id: 'Lyc',
    name: 'Lycaonia',
    aliases: ['Lykaonia'],
    type: l,
    anchor: [32.49, 37.87],
    seeds: [
      [33.2, 37.18],
      [30.7, 36.9],
      [31.39, 36.77],
      [30.52, 37.68],
    ],
  },
  {
    id: 'Cil',
    name: 'Cilicia',
    aliases: ['Kilikia'],
    type: l,
    anchor: [34.89, 36.92],
    unit: [34.7, 37.1],
    label: [33.75, 36.75],
    seeds: [
      [33.93, 36.38],
      [32.8, 36.1],
      [36.17, 36.85],
      [35.6, 36.96],
    ],
  },
  {
    id: 'Pap',
    name: 'Paphlagonia',
    type: l,
    anchor: [33.61, 40.6],
    seeds: [
      [35.15, 42.03],
      [32.38, 41.75],
      [34.3, 41.6],
    ],
  },
  {
    id: 'Pon',
    name: 'Pontus',
    aliases: ['Pontos'],
    type: l,
    anchor: [35.83, 40.65],
    seeds: [
      [36.33, 41.29],
      [39.72, 41.0],
      [37.02, 39.75],
      [38.5, 40.5],
    ],
  },
  {
    id: 'Mel',
    name: 'Melitene',
    type: l,
    anchor: [38.31, 38.35],
    seeds: [
      [35.48, 38.72],
      [34.61, 37.83],
      [36.5, 38.6],
    ],
  },
  {
    id: 'Com',
    name: 'Commagene',
    aliases: ['Kommagene'],
    type: l,
    anchor: [38.52, 37.52],
    seeds: [
      [37.88, 37.06],
      [36.93, 37.58],
      [38.79, 37.16],
    ],
  },
  {
    id: 'Arm',
    name: 'Armenia',
    type: l,
    anchor: [44.55, 39.9],
    seeds: [
      [41.3, 39.9],
      [43.3, 38.5],
      [42.5, 40.5],
      [40.0, 39.2],
      [39.6, 38.7],
    ],
  },
  {
    id: 'Atr',
    name: 'Atrophene',
    aliases: ['Atropatene'],
    type: l,
    anchor: [47.2, 36.6],
    seeds: [
      [46.3, 38.08],
      [47.5, 38.3],
      [45.5, 37.2],
    ],
  },

  /* ---------------- Mesopotamia and the Levant ---------------- */
  {
    id: 'Arb',
    name: 'Arbela',
    aliases: ['Erbil', 'Arbil'],
    type: l,
    anchor: [44.01, 36.19],
    seeds: [
      [43.15, 36.36],
      [41.2, 37.07],
      [44.8, 35.5],
    ],
  },
  {
    id: 'Sel',
    name: 'Seleukia',
    aliases: ['Seleucia'],
    type: l,
    anchor: [44.52, 33.1],
    seeds: [
      [44.42, 32.54],
      [45.5, 32.8],
      [43.5, 33.5],
    ],
  },
  {
    id: 'Cha',
    name: 'Charax',
    type: l,
    anchor: [47.6, 30.65],
    seeds: [
      [46.5, 31.0],
      [48.25, 32.19],
      [45.5, 30.5],
    ],
  },
  {
    id: 'Dur',
    name: 'Dura',
    aliases: ['Dura Europos'],
    type: l,
    anchor: [40.73, 34.75],
    seeds: [
      [39.0, 35.95],
      [41.5, 35.8],
      [40.1, 36.9],
      [42.0, 34.0],
    ],
  },
  {
    id: 'Pmy',
    name: 'Palmyra',
    aliases: ['Tadmor'],
    type: l,
    anchor: [38.27, 34.55],
    seeds: [
      [37.5, 33.2],
      [39.3, 33.4],
      [37.6, 35.4],
    ],
  },
  {
    id: 'Ant',
    name: 'Antioch',
    aliases: ['Antiochia', 'Antiocheia'],
    type: l,
    anchor: [36.16, 36.2],
    seeds: [
      [35.93, 36.12],
      [36.4, 35.42],
      [35.78, 35.52],
      [37.16, 36.2],
    ],
  },
  {
    id: 'Sid',
    name: 'Sidon',
    type: l,
    anchor: [35.37, 33.56],
    seeds: [
      [35.5, 33.9],
      [35.65, 34.12],
      [35.84, 34.44],
      [36.3, 33.51],
      [36.1, 34.0],
      [36.7, 33.7],
    ],
  },
  {
    id: 'Tyr',
    name: 'Tyre',
    aliases: ['Tyros', 'Tyrus'],
    type: l,
    anchor: [35.2, 33.27],
    seeds: [
      [35.08, 32.92],
      [35.5, 32.8],
      [34.9, 32.5],
      [35.8, 32.95],
      [35.5, 33.1],
      [35.5, 32.5],
    ],
  },
  // Rule 5 spells it "Jar".
  {
    id: 'Jer',
    name: 'Jerusalem',
    aliases: ['Jar', 'Hierosolyma'],
    type: l,
    anchor: [35.23, 31.78],
    seeds: [
      [34.75, 32.05],
      [34.45, 31.5],
      [35.19, 32.2],
      [34.8, 31.25],
      [33.8, 31.1],
    ],
  },
  {
    id: 'Phi',
    name: 'Philadelphia',
    type: l,
    anchor: [35.93, 31.95],
    seeds: [
      [36.48, 32.52],
      [35.89, 32.28],
      [36.8, 31.5],
      [35.75, 31.3],
    ],
  },
  {
    id: 'Nab',
    name: 'Nabathea',
    aliases: ['Nabataea', 'Nabatea'],
    type: l,
    anchor: [35.44, 30.33],
    seeds: [
      [35.0, 29.6],
      [37.95, 26.8],
      [36.5, 28.5],
      [36.6, 30.2],
    ],
  },
  // Sinai is the peninsula on the Red Sea; the coast road (Pelusium to Raphia) is Egypt's and Judaea's: a single-coasted Sinai
  // on both seas would be a second canal, which rule 11 does not have.
  {
    id: 'Sin',
    name: 'Sinai',
    type: l,
    anchor: [33.97, 28.54],
    seeds: [
      [33.8, 30.0],
      [33.0, 30.4],
      [
        [32.72, 29.88],
        [32.85, 29.55],
        [33.1, 29.05],
      ],
    ],
  },

  /* ---------------- Egypt and Africa ---------------- */
  {
    id: 'Alx',
    name: 'Alexandria',
    aliases: ['Alexandreia'],
    type: l,
    anchor: [29.92, 31.2],
    seeds: [
      [31.25, 29.85],
      [30.6, 30.8],
      [31.8, 31.2],
      [32.9, 31.05],
      [
        [31.51, 30.57],
        [31.9, 30.55],
        [32.28, 30.57],
        [32.38, 30.25],
        [32.55, 29.98],
      ],
    ],
  },
  {
    id: 'Pto',
    name: 'Ptolemais',
    type: l,
    anchor: [31.8, 26.48],
    seeds: [
      [32.65, 25.7],
      [30.8, 27.78],
      [34.24, 26.16],
      [30.84, 29.31],
      [
        [32.5, 29.6],
        [32.7, 28.8],
        [33.4, 27.6],
      ],
    ],
  },
  {
    id: 'Lib',
    name: 'Libya',
    type: l,
    anchor: [27.24, 31.35],
    seeds: [
      [25.52, 29.2],
      [25.8, 31.4],
      [28.5, 30.2],
    ],
  },
  {
    id: 'Cyr',
    name: 'Cyrene',
    aliases: ['Kyrene'],
    type: l,
    anchor: [21.86, 32.82],
    seeds: [
      [20.07, 32.12],
      [20.9, 32.5],
      [22.64, 32.76],
      [19.5, 30.6],
      [23.9, 32.0],
      [22.5, 31.0],
    ],
  },
  {
    id: 'Sah',
    name: 'Sahara',
    type: l,
    anchor: [13.0, 26.55],
    seeds: [
      [16.0, 28.0],
      [19.0, 28.0],
      [21.3, 29.1],
      [10.0, 29.0],
    ],
  },
  {
    id: 'LpM',
    name: 'Leptis Magna',
    aliases: ['Lepcis Magna', 'Leptis'],
    type: l,
    anchor: [14.29, 32.64],
    seeds: [
      [13.18, 32.9],
      [12.48, 32.8],
      [16.6, 31.2],
      [18.5, 30.5],
      [13.0, 31.0],
    ],
  },
  {
    id: 'Had',
    name: 'Hadrumetum',
    aliases: ['Hadrumentum'],
    type: l,
    anchor: [10.64, 35.83],
    seeds: [
      [10.7, 35.3],
      [10.1, 33.88],
      [9.13, 35.24],
      [9.5, 34.3],
    ],
  },
  {
    id: 'Car',
    name: 'Carthage',
    aliases: ['Carthago', 'Karthago', 'Karchedon'],
    type: l,
    anchor: [10.32, 36.86],
    seeds: [
      [10.06, 37.05],
      [9.2, 36.3],
      [9.7, 36.7],
    ],
  },
  {
    id: 'Asp',
    name: 'Aspis',
    aliases: ['Clupea'],
    type: l,
    anchor: [11.1, 36.85],
    label: [11.5, 37.1],
    seeds: [
      [10.73, 36.45],
      [10.9, 36.7],
    ],
  },
  {
    id: 'Num',
    name: 'Numidia',
    type: l,
    anchor: [6.61, 36.37],
    seeds: [
      [7.75, 36.9],
      [8.12, 35.4],
      [3.06, 36.77],
      [5.4, 36.2],
      [2.2, 36.0],
    ],
  },
  {
    id: 'Mau',
    name: 'Mauretania',
    aliases: ['Mauritania'],
    type: l,
    anchor: [-5.55, 34.07],
    seeds: [
      [-5.8, 35.78],
      [-1.5, 35.25],
      [-6.1, 35.2],
      [-7.5, 33.5],
      [-3.0, 34.5],
      [0.5, 35.6],
    ],
  },

  /* ---------------- Fretus, Britain ---------------- */
  {
    id: 'Fre',
    name: 'Fretus',
    type: l,
    anchor: [1.61, 50.73],
    seeds: [
      [2.5, 51.0],
      [3.3, 51.2],
      [1.9, 50.3],
    ],
  },
  {
    id: 'Bri',
    name: 'Britain',
    aliases: ['Britannia'],
    type: 'impassable',
    anchor: [-1.3, 51.8],
    seeds: [
      [-3.5, 52.5],
      [0.5, 51.5],
      [-4.5, 50.5],
    ],
  },
];

/** Supply centres and build centres (rules 2, 4–7; neutrals chosen in the README). */
export const CENTRES: Record<string, CentreSource> = {
  // Carthage
  Car: { centre: { supply: 2 }, home: 'Carthage' },
  Had: { centre: { supply: 1 }, home: 'Carthage' },
  New: { centre: { supply: 1 }, home: 'Carthage' },
  Gad: { centre: { supply: 1 }, home: 'Carthage' },
  // Egypt
  Alx: { centre: { supply: 2, indestructible: true }, home: 'Egypt' },
  Cyp: { centre: { supply: 1 }, home: 'Egypt' },
  Pto: { centre: { supply: 1 }, home: 'Egypt' },
  // Macedonia
  Kor: { centre: { supply: 1 }, home: 'Macedonia' },
  Lar: { centre: { supply: 1 }, home: 'Macedonia' },
  Pel: { centre: { supply: 2 }, home: 'Macedonia' },
  // Rome
  Nea: { centre: { supply: 1 }, home: 'Rome' },
  Rom: { centre: { supply: 1, supplyFor: { Rome: 3 }, indestructible: true }, home: 'Rome' },
  Bru: { centre: { supply: 1 }, home: 'Rome' },
  Rav: { centre: { supply: 1 }, home: 'Rome' },
  // Syria
  Ant: { centre: { supply: 2, indestructible: true }, home: 'Syria' },
  Arb: { centre: { supply: 1 }, home: 'Syria' },
  Sel: { centre: { supply: 1 }, home: 'Syria' },
  // Rebel neutrals (rule 6)
  Arm: { centre: { supply: 1, rebel: true } },
  Bel: { centre: { supply: 1, rebel: true } },
  Ill: { centre: { supply: 1, rebel: true } },
  Scy: { centre: { supply: 1, rebel: true } },
  // Special build centres (rule 5)
  Ath: { buildCentre: true },
  Jer: { buildCentre: true },
  Sid: { buildCentre: true },
  // Other neutrals (chosen; see README)
  Syr: { centre: { supply: 2 } },
  Eph: { centre: { supply: 2 } },
  Sag: { centre: { supply: 1 } },
  Mal: { centre: { supply: 1 } },
  Num: { centre: { supply: 1 } },
  LpM: { centre: { supply: 1 } },
  Sar: { centre: { supply: 1 } },
  Pal: { centre: { supply: 1 } },
  Lug: { centre: { supply: 1 } },
  Cis: { centre: { supply: 1 } },
  Per: { centre: { supply: 1 } },
  Cyr: { centre: { supply: 1 } },
  Cre: { centre: { supply: 1 } },
  Tyr: { centre: { supply: 1 } },
  Cil: { centre: { supply: 1 } },
  Thr: { centre: { supply: 1 } },
  Epi: { centre: { supply: 1 } },
  Dur: { centre: { supply: 1 } },
  Cha: { centre: { supply: 1 } },
  Nab: { centre: { supply: 1 } },
};

/** Island provinces listed separately to keep the table above readable. */
PROVINCES.push(
  {
    id: 'Cre',
    name: 'Crete',
    aliases: ['Creta', 'Kreta'],
    type: l,
    anchor: [25.16, 35.3],
    seeds: [
      [24.95, 35.06],
      [24.02, 35.51],
      [26.0, 35.15],
      [23.7, 35.4],
    ],
    label: [24.9, 34.72],
  },
  {
    id: 'Cyp',
    name: 'Cyprus',
    aliases: ['Kypros'],
    type: l,
    anchor: [33.9, 35.18],
    seeds: [
      [32.42, 34.76],
      [33.3, 35.1],
      [34.4, 35.6],
    ],
    label: [33.1, 34.42],
  },
);

/** Rivers drawn for orientation only (no effect on the map's data): approximate courses through real places. */
export const RIVERS: { name: string; course: LonLat[] }[] = [
  {
    name: 'Nile',
    course: [
      [32.9, 24.09],
      [32.65, 25.7],
      [32.72, 26.16],
      [31.7, 26.55],
      [31.18, 27.18],
      [30.75, 28.1],
      [31.1, 29.07],
      [31.23, 30.05],
      [31.12, 30.2],
      [30.8, 30.9],
      [30.42, 31.42],
    ],
  },
  {
    name: 'Nile (Pelusiac branch)',
    course: [
      [31.12, 30.2],
      [31.51, 30.57],
      [31.9, 30.8],
      [32.3, 30.95],
      [32.55, 31.03],
    ],
  },
  {
    name: 'Nile (Phatnitic branch)',
    course: [
      [31.12, 30.2],
      [31.2, 30.6],
      [31.4, 31.0],
      [31.81, 31.42],
    ],
  },
  {
    name: 'Euphrates',
    course: [
      [38.8, 38.8],
      [38.52, 37.52],
      [37.88, 37.06],
      [38.0, 36.83],
      [38.3, 36.0],
      [39.0, 35.95],
      [40.15, 35.3],
      [40.73, 34.75],
      [41.98, 34.47],
      [42.83, 33.64],
      [43.78, 33.35],
      [44.42, 32.54],
      [44.4, 32.03],
      [45.3, 31.3],
      [46.26, 31.05],
      [47.43, 31.0],
      [47.8, 30.5],
      [48.6, 29.95],
    ],
  },
  {
    name: 'Tigris',
    course: [
      [39.9, 38.2],
      [40.23, 37.91],
      [41.1, 37.6],
      [42.19, 37.33],
      [42.7, 36.9],
      [43.15, 36.36],
      [43.3, 35.6],
      [43.68, 34.6],
      [43.87, 34.2],
      [44.4, 33.32],
      [44.52, 33.1],
      [45.2, 32.8],
      [45.83, 32.5],
      [47.15, 31.83],
      [47.43, 31.0],
    ],
  },
  {
    name: 'Danube',
    course: [
      [8.5, 47.95],
      [10.0, 48.4],
      [12.1, 49.0],
      [13.45, 48.57],
      [14.3, 48.3],
      [16.37, 48.2],
      [17.1, 48.14],
      [18.1, 47.76],
      [18.74, 47.79],
      [19.05, 47.5],
      [18.9, 46.6],
      [18.68, 46.0],
      [19.0, 45.35],
      [19.85, 45.25],
      [20.46, 44.82],
      [21.6, 44.65],
      [22.5, 44.65],
      [22.88, 43.99],
      [23.8, 43.75],
      [24.9, 43.7],
      [25.95, 43.85],
      [27.27, 44.12],
      [27.95, 44.68],
      [27.97, 45.27],
      [28.05, 45.43],
      [28.8, 45.18],
      [29.65, 45.15],
    ],
  },
  {
    name: 'Rhine',
    course: [
      [9.5, 47.6],
      [8.6, 47.6],
      [7.59, 47.56],
      [7.8, 48.58],
      [8.4, 49.3],
      [8.27, 50.0],
      [7.6, 50.36],
      [6.96, 50.94],
      [6.76, 51.43],
      [5.85, 51.85],
      [4.1, 51.95],
    ],
  },
  {
    name: 'Rhodanus',
    course: [
      [6.15, 46.2],
      [5.4, 45.9],
      [4.83, 45.76],
      [4.9, 44.93],
      [4.8, 43.95],
      [4.63, 43.68],
      [4.7, 43.4],
    ],
  },
  {
    name: 'Padus',
    course: [
      [7.3, 44.7],
      [7.68, 45.07],
      [8.6, 45.1],
      [9.7, 45.05],
      [10.02, 45.13],
      [11.0, 45.0],
      [11.6, 44.88],
      [12.4, 44.95],
    ],
  },
];

/** Map frame and projection. */
export const FRAME = {
  width: 1600,
  /** Conic conformal, standard parallels and central meridian. */
  parallels: [32, 46] as [number, number],
  centralMeridian: 19,
  /** Points the drawing must contain (lon/lat), with a margin in SVG units. */
  extent: [
    [-10.6, 36.9],
    [-9.9, 43.5],
    [-5.5, 48.8],
    [-2.0, 52.6],
    [1.6, 53.0],
    [9.0, 52.5],
    [45.0, 47.5],
    [49.5, 38.0],
    [49.0, 30.0],
    [35.5, 25.4],
    [31.0, 25.4],
    [10.0, 27.0],
    [-10.0, 31.0],
  ] as LonLat[],
  margin: 6,
};

const source: MapSource = {
  id: 'diadochi-v',
  name: VARIANT.name,
  frame: FRAME,
  background: BACKGROUND,
  waterCuts: WATER_CUTS,
  provinces: PROVINCES,
  rivers: RIVERS,
  links: SPECIAL_LINKS,
  data: {
    kind: 'generated',
    variant: VARIANT,
    powers: POWERS,
    rules: RULES,
    startUnits: START_UNITS,
    centres: CENTRES,
    readmeTable: true,
  },
};

export default source;
