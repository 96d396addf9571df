/**
 * The Ancient Mediterranean (Don Hessong): the drawing of a hand-written
 * variant. maps/ancient-mediterranean/variant.json holds the rules' data and
 * adjacency; `npm run mapgen -- ancient-mediterranean` draws it from real
 * geography and fails unless the drawing shows exactly that adjacency.
 *
 * Every province is anchored at a real place ([longitude, latitude]); extra
 * seeds (points or polylines, also real places) push its borders where the
 * rules' adjacency needs them. Readings of the map are in
 * maps/ancient-mediterranean/README.md.
 */
import type { LinkSource, MapSource, ProvinceSource } from '../source.ts';

const sea = 'sea' as const;
const land = 'land' as const;

/** The rules' special links (the data's specialLinks, same members), then the drawing's own, each with the real points its drawn link joins. */
const LINKS: LinkSource[] = [
  {
    kind: 'canal',
    between: ['byz', 'bla', 'aeg'],
    note: 'Byzantium straddles the Bosporus and the Hellespont, as Constantinople does in the standard game: one coast, armies cross freely',
    draw: [
      [29.1, 41.25],
      [28.98, 41.01],
      [28.0, 40.75],
      [27.0, 40.55],
      [26.5, 40.3],
      [26.2, 40.02],
    ],
  },
  {
    kind: 'canal',
    between: ['ath', 'aeg', 'ion'],
    note: 'Isthmus of Corinth: a fleet in Athens reaches both the Aegean and the Ionian Sea; Athens has one coast',
    draw: [
      [22.89, 37.955],
      [22.95, 37.93],
      [23.0, 37.915],
    ],
  },
  {
    kind: 'canal',
    between: ['bal', 'tar', 'sag'],
    note: 'The Baleares, islands and the water round them: a fleet there also reaches the coasts of Tarraconensis and Saguntum; no army crosses without a convoy',
    draw: [
      [0.9, 41.0],
      [2.6, 39.6],
      [-0.1, 39.0],
    ],
  },
  {
    kind: 'passage',
    between: ['nea', 'sic'],
    note: 'Strait of Messina (the Sicilian Straits): armies and fleets cross',
    draw: [
      [15.68, 38.2],
      [15.5, 38.22],
    ],
  },
  {
    kind: 'passage',
    between: ['sag', 'mau'],
    note: 'Strait of Gibraltar: armies and fleets cross',
    draw: [
      [-5.6, 36.1],
      [-5.45, 35.85],
    ],
  },
  {
    kind: 'passage',
    between: ['cor', 'sad'],
    note: 'Strait of Bonifacio: armies and fleets cross',
    draw: [
      [9.2, 41.42],
      [9.25, 41.2],
    ],
  },
  {
    kind: 'canal',
    between: ['mem', 'ale', 'thb'],
    note: 'River Nile: a fleet in Memphis sails down to Alexandria or across to Thebes; the river stops no army',
    draw: [
      [30.4, 30.6],
      [31.0, 29.9],
      [31.45, 29.9],
    ],
  },
  {
    kind: 'canal',
    between: ['bay', 'mem', 'thb'],
    note: 'River Nile, upper course: a fleet in Bayuda sails down to Memphis or Thebes',
    draw: [
      [31.6, 22.4],
      [32.4, 23.2],
      [32.85, 24.1],
    ],
  },
  {
    kind: 'canal',
    between: ['thb', 'gop', 'ree'],
    note: 'Canal of the Pharaohs (Nile to Red Sea): fleets in Thebes or Sinai reach both the Gulf of Pelusium and the Red Sea',
    draw: [
      [32.2, 31.1],
      [31.9, 30.55],
      [32.3, 30.5],
      [32.55, 29.97],
    ],
  },
  {
    kind: 'canal',
    between: ['sin', 'gop', 'ree'],
    note: 'Sinai lies on both the Gulf of Pelusium and the Red Sea, with the canal on its border with Thebes',
    draw: [
      [33.2, 31.1],
      [33.0, 30.3],
      [32.9, 29.8],
    ],
  },
  {
    kind: 'passage',
    between: ['ale', 'sin'],
    note: 'Four-way point at the Nile mouth: Alexandria, Sinai, Thebes and the Gulf of Pelusium all touch one another',
    draw: [
      [31.6, 31.35],
      [32.6, 31.15],
    ],
  },
  // The drawing's own links (not rules of the variant, whose adjacency already has these moves):
  {
    kind: 'canal',
    between: ['got', 'mes', 'lib'],
    note: 'Four-way sea point south of Sicily: the Gulf of Tacape also touches the Messenian Sea (the Ausonian Sea touches the Libyan across the point)',
    draw: [
      [16.4, 34.9],
      [17.9, 35.3],
    ],
  },
  {
    kind: 'canal',
    between: ['tar', 'sag', 'lig'],
    note: 'The Ligurian and Berber Seas meet the coast at the Tarraconensis–Saguntum border: fleets follow the shore from one to the other',
    draw: [
      [0.05, 40.45],
      [-0.2, 40.0],
    ],
  },
];

/* The provinces: anchors at the real places the names mean, seeds where the rules' borders need them. */
const PROVINCES: ProvinceSource[] = [
  /* ---------------- Seas ---------------- */
  {
    id: 'adr',
    type: sea,
    anchor: [15.6, 43.0],
    seeds: [
      [13.2, 44.6],
      [17.4, 42.3],
      [18.9, 41.5],
      [14.5, 43.9],
    ],
  },
  {
    id: 'aeg',
    type: sea,
    anchor: [25.0, 38.6],
    seeds: [
      [24.4, 39.8],
      [23.8, 37.3],
      [25.5, 36.8],
      [25.6, 40.3],
      [24.2, 40.5],
      [24.8, 35.95],
    ],
  },
  {
    id: 'aus',
    type: sea,
    anchor: [16.5, 36.8],
    seeds: [
      [15.4, 37.4],
      [15.65, 37.95],
      [17.4, 38.2],
      [16.8, 35.9],
    ],
  },
  {
    id: 'ber',
    type: sea,
    anchor: [4.5, 38.0],
    seeds: [
      [0.6, 37.6],
      [2.6, 38.6],
      [6.8, 38.4],
      [7.5, 37.6],
      [0.1, 39.9],
      [7.7, 38.9],
    ],
  },
  {
    id: 'bla',
    type: sea,
    anchor: [34.0, 43.4],
    seeds: [
      [30.5, 43.2],
      [37.5, 42.6],
      [39.8, 42.0],
      [31.3, 44.8],
      [29.6, 42.0],
    ],
  },
  {
    id: 'cil',
    type: sea,
    anchor: [31.8, 35.9],
    seeds: [
      [29.9, 36.0],
      [34.2, 36.4],
      [35.6, 36.2],
      [32.6, 36.3],
      [35.4, 35.1],
      [34.6, 35.6],
    ],
  },
  {
    id: 'egy',
    type: sea,
    anchor: [28.5, 33.0],
    seeds: [
      [30.2, 32.3],
      [32.0, 33.4],
      [26.6, 34.7],
      [29.0, 34.4],
      [31.5, 34.2],
    ],
  },
  {
    id: 'gop',
    type: sea,
    anchor: [33.0, 31.6],
    seeds: [
      [32.1, 31.55],
      [33.8, 31.6],
      [31.6, 31.7],
    ],
  },
  {
    id: 'gos',
    type: sea,
    anchor: [18.5, 31.6],
    seeds: [
      [17.3, 31.3],
      [19.6, 31.1],
      [18.2, 32.2],
    ],
  },
  {
    id: 'got',
    type: sea,
    anchor: [12.5, 34.4],
    seeds: [
      [11.3, 34.0],
      [14.2, 34.4],
      [15.6, 33.6],
      [13.0, 35.5],
    ],
  },
  {
    id: 'ibe',
    type: sea,
    anchor: [-3.2, 36.3],
    seeds: [
      [-4.6, 36.2],
      [-1.6, 36.1],
    ],
  },
  {
    id: 'ion',
    type: sea,
    anchor: [19.2, 38.8],
    seeds: [
      [18.8, 40.0],
      [17.4, 39.6],
      [21.4, 38.3],
      [22.6, 38.15],
      [20.3, 37.6],
    ],
  },
  {
    id: 'lib',
    type: sea,
    anchor: [23.5, 33.6],
    seeds: [
      [20.6, 33.6],
      [26.0, 32.2],
      [24.6, 34.5],
      [18.6, 33.6],
    ],
  },
  {
    id: 'lig',
    type: sea,
    anchor: [5.6, 41.6],
    seeds: [
      [4.3, 42.7],
      [7.0, 43.3],
      [8.7, 43.9],
      [3.2, 40.7],
      [1.0, 40.8],
      [0.45, 40.45],
      [9.9, 43.0],
      [10.6, 42.7],
      [11.4, 42.25],
      [7.6, 41.6],
    ],
  },
  {
    id: 'mes',
    type: sea,
    anchor: [21.2, 35.6],
    seeds: [
      [20.7, 36.9],
      [23.2, 35.6],
      [19.4, 35.2],
    ],
  },
  {
    id: 'min',
    type: sea,
    anchor: [27.6, 35.4],
    seeds: [
      [28.3, 36.2],
      [26.6, 35.75],
    ],
  },
  {
    id: 'pun',
    type: sea,
    anchor: [10.8, 37.9],
    seeds: [
      [11.8, 37.1],
      [9.5, 38.4],
      [12.4, 37.8],
    ],
  },
  {
    id: 'ree',
    type: sea,
    anchor: [34.6, 27.6],
    seeds: [
      [33.0, 28.6],
      [34.75, 28.8],
      [36.0, 25.4],
      [37.4, 23.0],
    ],
  },
  {
    id: 'syr',
    type: sea,
    anchor: [34.6, 33.3],
    seeds: [
      [34.4, 32.5],
      [34.9, 33.9],
      [34.2, 34.6],
    ],
  },
  {
    id: 'tyn',
    type: sea,
    anchor: [12.2, 40.0],
    seeds: [
      [10.7, 39.4],
      [13.6, 39.3],
      [14.8, 38.8],
      [10.2, 41.6],
      [11.8, 41.45],
      [15.4, 38.45],
    ],
  },

  /* ---------------- Iberia and Gaul ---------------- */
  {
    id: 'lus',
    type: land,
    anchor: [-6.34, 38.92],
    seeds: [
      [-8.0, 40.5],
      [-6.0, 42.3],
      [-4.3, 40.6],
      [-3.2, 42.9],
      [-1.8, 43.1],
    ],
  },
  {
    id: 'tar',
    type: land,
    anchor: [1.25, 41.12],
    seeds: [
      [-0.88, 41.65],
      [2.2, 41.9],
      [0.9, 42.3],
      [0.3, 40.55],
    ],
  },
  {
    id: 'sag',
    type: land,
    anchor: [-0.27, 39.68],
    seeds: [
      [-2.0, 37.5],
      [-4.5, 37.0],
      [-5.5, 36.3],
      [-1.1, 38.1],
      [-0.2, 40.0],
    ],
  },
  {
    id: 'gau',
    type: land,
    anchor: [2.4, 46.6],
    seeds: [
      [0.0, 47.0],
      [4.0, 48.0],
      [-0.6, 44.6],
      [1.5, 43.8],
      [-1.0, 43.4],
      [4.5, 45.3],
    ],
  },
  {
    id: 'mas',
    type: land,
    anchor: [5.37, 43.3],
    seeds: [
      [3.0, 43.2],
      [6.6, 43.7],
      [4.4, 43.85],
      [6.1, 44.4],
    ],
  },
  /* ---------------- Italy and the islands ---------------- */
  {
    id: 'rha',
    type: land,
    anchor: [10.0, 47.0],
    seeds: [
      [7.8, 46.9],
      [12.5, 47.7],
      [9.0, 47.9],
      [6.9, 45.6],
      [7.2, 46.3],
    ],
  },
  {
    id: 'etr',
    type: land,
    anchor: [11.25, 43.3],
    seeds: [
      [8.9, 44.4],
      [10.5, 44.0],
      [8.0, 44.3],
    ],
  },
  {
    id: 'ven',
    type: land,
    anchor: [12.3, 45.4],
    seeds: [
      [13.37, 45.77],
      [10.2, 45.6],
    ],
  },
  {
    id: 'rav',
    type: land,
    anchor: [12.2, 44.42],
    seeds: [
      [11.34, 44.5],
      [
        [12.6, 44.0],
        [13.5, 43.5],
        [14.2, 42.4],
        [14.9, 42.0],
      ],
    ],
  },
  {
    id: 'rom',
    type: land,
    anchor: [12.5, 41.9],
    seeds: [
      [12.3, 42.6],
      [11.9, 42.3],
      [13.4, 41.4],
      [14.0, 41.5],
    ],
  },
  {
    id: 'nea',
    type: land,
    anchor: [14.25, 40.85],
    seeds: [
      [16.0, 39.3],
      [15.7, 38.2],
      [15.2, 40.4],
    ],
  },
  {
    id: 'apu',
    type: land,
    anchor: [16.9, 40.8],
    seeds: [
      [15.5, 41.5],
      [18.0, 40.3],
      [15.8, 41.8],
    ],
  },
  { id: 'sic', type: land, anchor: [14.2, 37.5] },
  { id: 'cor', type: land, anchor: [9.1, 42.1] },
  { id: 'sad', type: land, anchor: [9.0, 40.0] },
  {
    id: 'bal',
    type: land,
    anchor: [2.9, 39.6],
    seeds: [
      [1.4, 38.95],
      [4.1, 39.95],
    ],
  },
  /* ---------------- The Balkans and the Danube ---------------- */
  {
    id: 'vin',
    type: land,
    anchor: [16.37, 48.21],
    seeds: [
      [18.0, 46.6],
      [15.2, 47.2],
    ],
  },
  {
    id: 'dal',
    type: land,
    anchor: [16.44, 43.54],
    seeds: [
      [15.0, 44.7],
      [18.5, 42.5],
      [14.2, 45.2],
    ],
  },
  {
    id: 'ill',
    type: land,
    anchor: [20.6, 43.4],
    seeds: [
      [21.9, 43.3],
      [19.8, 44.9],
      [20.4, 46.2],
    ],
  },
  {
    id: 'sam',
    type: land,
    anchor: [25.0, 49.0],
    seeds: [
      [13.5, 50.0],
      [17.5, 49.9],
      [21.5, 48.6],
      [29.0, 48.6],
      [33.0, 48.3],
      [38.0, 47.8],
    ],
  },
  {
    id: 'dac',
    type: land,
    anchor: [25.6, 44.6],
    seeds: [
      [24.0, 45.6],
      [28.2, 44.4],
      [27.5, 46.5],
      [29.5, 45.8],
    ],
  },
  {
    id: 'che',
    type: land,
    anchor: [33.5, 44.6],
    seeds: [
      [31.0, 46.6],
      [35.5, 45.3],
      [38.5, 45.5],
      [38.6, 44.4],
      [40.3, 43.2],
      [41.6, 41.8],
      [34.0, 46.0],
    ],
  },
  {
    id: 'epi',
    type: land,
    anchor: [20.8, 39.6],
    seeds: [
      [19.8, 40.8],
      [21.4, 38.7],
      [20.0, 41.6],
    ],
  },
  {
    id: 'mac',
    type: land,
    anchor: [22.52, 40.76],
    seeds: [
      [21.5, 41.4],
      [24.5, 41.1],
      [22.4, 39.6],
      [23.5, 42.2],
    ],
  },
  {
    id: 'ath',
    type: land,
    anchor: [23.73, 37.98],
    seeds: [
      [22.6, 38.5],
      [23.3, 38.4],
    ],
  },
  {
    id: 'spa',
    type: land,
    anchor: [22.43, 37.07],
    seeds: [
      [21.7, 37.6],
      [22.7, 37.7],
    ],
  },
  {
    id: 'byz',
    type: land,
    anchor: [28.98, 41.01],
    seeds: [
      [27.0, 41.6],
      [26.6, 40.6],
      [27.9, 40.4],
      [29.2, 40.6],
      [26.5, 40.1],
      [28.2, 41.2],
    ],
  },
  /* ---------------- Asia Minor and the Levant ---------------- */
  {
    id: 'bit',
    type: land,
    anchor: [30.4, 40.6],
    seeds: [
      [31.6, 41.1],
      [30.2, 41.1],
    ],
  },
  {
    id: 'sip',
    type: land,
    anchor: [35.15, 42.02],
    seeds: [
      [37.3, 41.1],
      [39.7, 41.0],
      [33.8, 41.6],
    ],
  },
  {
    id: 'mil',
    type: land,
    anchor: [27.28, 37.53],
    seeds: [
      [27.2, 38.5],
      [26.6, 39.4],
      [28.8, 37.0],
      [29.6, 36.5],
    ],
  },
  {
    id: 'gal',
    type: land,
    anchor: [32.86, 39.93],
    seeds: [
      [30.5, 39.0],
      [34.0, 40.3],
      [29.8, 39.6],
    ],
  },
  {
    id: 'isa',
    type: land,
    anchor: [32.3, 37.2],
    seeds: [
      [31.0, 36.9],
      [30.6, 37.5],
    ],
  },
  {
    id: 'cap',
    type: land,
    anchor: [35.48, 38.72],
    seeds: [
      [34.9, 36.95],
      [37.5, 39.0],
      [34.0, 36.4],
      [37.3, 37.6],
    ],
  },
  {
    id: 'arm',
    type: land,
    anchor: [41.0, 39.6],
    seeds: [
      [43.0, 40.0],
      [42.0, 39.0],
      [39.5, 39.2],
    ],
  },
  { id: 'ant', type: land, anchor: [36.16, 36.2], seeds: [[36.1, 35.5]] },
  {
    id: 'dam',
    type: land,
    anchor: [36.29, 33.51],
    seeds: [
      [36.6, 34.2],
      [38.3, 35.5],
      [40.0, 36.5],
      [41.5, 36.0],
      [37.2, 35.2],
    ],
  },
  {
    id: 'sid',
    type: land,
    anchor: [35.37, 33.56],
    seeds: [
      [35.8, 34.4],
      [35.9, 34.9],
    ],
  },
  { id: 'tye', type: land, anchor: [35.2, 33.27], seeds: [[35.08, 32.9]] },
  {
    id: 'ara',
    type: land,
    anchor: [37.6, 32.0],
    seeds: [
      [36.4, 32.6],
      [35.7, 33.2],
      [35.95, 33.55],
      [39.5, 30.5],
      [41.0, 32.0],
    ],
  },
  {
    id: 'jer',
    type: land,
    anchor: [35.23, 31.78],
    seeds: [
      [34.5, 31.45],
      [35.4, 31.2],
    ],
  },
  { id: 'pet', type: land, anchor: [35.44, 30.33], seeds: [[35.0, 29.6]] },
  {
    id: 'nab',
    type: land,
    anchor: [37.9, 27.5],
    seeds: [
      [36.5, 28.4],
      [37.2, 30.5],
      [36.3, 31.3],
    ],
  },
  /* ---------------- Egypt ---------------- */
  {
    id: 'sin',
    type: land,
    anchor: [33.8, 29.5],
    seeds: [
      [33.3, 30.8],
      [34.3, 28.5],
      [34.0, 31.0],
    ],
  },
  {
    id: 'thb',
    type: land,
    anchor: [32.65, 25.7],
    label: [33.3, 26.9],
    unit: [33.3, 27.5],
    seeds: [
      // The east bank of the Nile, from the Damietta branch to Aswan.
      [
        [31.95, 31.1],
        [31.55, 30.3],
        [31.5, 29.3],
        [31.05, 28.1],
        [31.45, 27.2],
        [31.95, 26.55],
        [32.95, 26.1],
        [32.9, 25.6],
        [33.15, 24.1],
      ],
      [32.3, 29.6],
      [33.4, 26.8],
      [32.4, 30.9],
      [34.6, 24.0],
      [35.8, 22.4],
    ],
  },
  {
    id: 'ale',
    type: land,
    anchor: [29.92, 31.2],
    seeds: [
      [30.6, 31.1],
      [28.6, 31.0],
      [27.2, 31.3],
      [26.0, 31.55],
      [25.3, 31.6],
      [31.3, 31.3],
      [31.0, 30.6],
    ],
  },
  {
    id: 'mem',
    type: land,
    anchor: [31.25, 29.85],
    seeds: [
      // The west bank of the Nile, from the head of the Delta to Aswan.
      [
        [30.95, 30.0],
        [30.95, 29.3],
        [30.55, 28.1],
        [30.95, 27.2],
        [31.5, 26.5],
        [32.5, 26.0],
        [32.45, 25.6],
        [32.65, 24.1],
      ],
      [29.3, 30.1],
      [27.8, 29.9],
      [26.4, 30.1],
    ],
  },
  { id: 'bay', type: land, anchor: [32.0, 21.8], seeds: [[30.5, 22.3]] },
  /* ---------------- Africa ---------------- */
  {
    id: 'cyr',
    type: land,
    anchor: [21.86, 32.82],
    seeds: [
      [20.07, 32.1],
      [23.9, 32.0],
      [24.6, 31.2],
      [20.0, 30.9],
      [22.5, 30.5],
    ],
  },
  {
    id: 'mar',
    type: land,
    anchor: [25.0, 28.0],
    seeds: [
      [21.5, 28.6],
      [27.5, 27.5],
      [19.5, 28.9],
      [28.8, 25.0],
      [29.8, 24.0],
    ],
  },
  {
    id: 'lep',
    type: land,
    anchor: [14.29, 32.64],
    seeds: [
      [13.2, 32.9],
      [16.6, 31.2],
      [17.8, 30.7],
      [19.0, 30.4],
      [15.0, 31.0],
    ],
  },
  {
    id: 'pha',
    type: land,
    anchor: [14.4, 26.6],
    seeds: [
      [10.5, 30.0],
      [12.0, 28.5],
      [20.0, 26.5],
      [24.5, 24.5],
      [27.5, 23.2],
      [29.3, 22.6],
    ],
  },
  {
    id: 'sah',
    type: land,
    anchor: [3.0, 30.5],
    seeds: [
      [-3.0, 31.0],
      [0.0, 28.0],
      [6.0, 26.5],
      [12.0, 22.6],
      [20.0, 22.2],
      [26.0, 21.6],
      [30.0, 21.45],
    ],
  },
  {
    id: 'num',
    type: land,
    anchor: [10.1, 33.9],
    seeds: [
      [9.6, 33.2],
      [11.2, 33.0],
    ],
  },
  {
    id: 'cir',
    type: land,
    anchor: [6.61, 36.37],
    seeds: [
      [5.5, 35.5],
      [7.2, 34.2],
      [7.8, 32.8],
    ],
  },
  {
    id: 'mau',
    type: land,
    anchor: [-5.0, 34.3],
    seeds: [
      [-1.0, 35.2],
      [2.5, 36.4],
      [-5.8, 35.6],
      [0.8, 35.6],
      [3.6, 36.7],
    ],
  },
  {
    id: 'car',
    type: land,
    anchor: [10.32, 36.85],
    seeds: [
      [7.8, 36.85],
      [5.6, 36.7],
      [9.4, 37.0],
      [6.6, 36.95],
      [5.0, 36.7],
    ],
  },
  {
    id: 'tha',
    type: land,
    anchor: [11.0, 35.62],
    seeds: [
      [10.6, 35.85],
      [10.7, 34.75],
    ],
  },
  /* ---------------- Islands of the east ---------------- */
  { id: 'cre', type: land, anchor: [24.9, 35.25] },
  { id: 'cyp', type: land, anchor: [33.2, 35.05] },
];

const source: MapSource = {
  id: 'ancient-mediterranean',
  name: 'Ancient Mediterranean',
  frame: {
    width: 1600,
    parallels: [30, 44],
    centralMeridian: 17,
    extent: [
      [-9.6, 36.0],
      [-9.4, 43.6],
      [-4.5, 48.8],
      [4.0, 49.2],
      [20.0, 49.6],
      [40.0, 47.6],
      [44.5, 41.5],
      [44.5, 33.0],
      [37.5, 21.4],
      [31.0, 21.2],
      [10.0, 22.0],
      [-9.0, 29.0],
    ],
    margin: 6,
  },
  background: {
    land: [],
    // The Atlantic and the Bay of Biscay are off the board.
    water: [
      [-8.0, 36.3],
      [-10.0, 38.5],
      [-10.0, 42.0],
      [-6.0, 44.2],
      [-3.0, 45.5],
      [-7.5, 46.5],
      [-10.0, 33.0],
    ],
    areas: [],
  },
  waterCuts: [
    // The Strait of Messina, wide enough for the Tyrrhenean and Ausonian Seas to meet.
    [
      [15.55, 38.3],
      [15.62, 38.2],
      [15.6, 38.05],
    ],
    [
      [15.58, 38.31],
      [15.66, 38.2],
      [15.64, 38.05],
    ],
    // Rion–Antirrion: the Gulf of Corinth meets the Gulf of Patras; Sparta and Epirus do not touch.
    [
      [21.7, 38.3],
      [21.79, 38.32],
      [21.9, 38.34],
    ],
    // The Strait of Bonifacio.
    [
      [9.05, 41.33],
      [9.2, 41.33],
      [9.35, 41.3],
    ],
  ],
  landFills: [
    // The Sea of Marmara with the Bosporus and the Dardanelles: Byzantium's waterway, no sea of the game.
    [
      [26.15, 40.05],
      [26.5, 40.45],
      [26.9, 40.65],
      [27.5, 41.05],
      [28.6, 41.1],
      [29.05, 41.28],
      [29.2, 41.25],
      [29.2, 41.0],
      [29.95, 40.75],
      [29.2, 40.3],
      [27.5, 40.25],
      [26.8, 40.3],
      [26.4, 40.0],
    ],
    // The Sea of Azov, inside Chersonesus: Sarmatia stays inland.
    [
      [34.6, 45.2],
      [35.2, 45.45],
      [36.5, 45.35],
      [36.7, 45.25],
      [38.3, 46.0],
      [39.4, 47.3],
      [38.0, 47.3],
      [35.0, 46.6],
      [34.6, 45.9],
    ],
  ],
  provinces: PROVINCES,
  rivers: [
    {
      name: 'Nile',
      course: [
        [31.8, 31.5],
        [31.25, 30.1],
        [31.22, 29.3],
        [30.8, 28.1],
        [31.2, 27.2],
        [31.7, 26.55],
        [32.72, 26.15],
        [32.65, 25.7],
        [32.9, 24.1],
        [31.35, 21.8],
      ],
    },
    {
      name: 'Danube',
      course: [
        [12.0, 48.9],
        [16.37, 48.21],
        [18.9, 47.8],
        [18.9, 45.6],
        [20.5, 44.8],
        [22.6, 44.6],
        [25.5, 43.7],
        [28.0, 44.2],
        [29.7, 45.2],
      ],
    },
  ],
  links: LINKS,
  data: { kind: 'hand-written' },
};

export default source;
