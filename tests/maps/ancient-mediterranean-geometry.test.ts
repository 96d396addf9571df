/**
 * Ancient Mediterranean's drawing (maps/ancient-mediterranean/geometry.json) is real geography: ancient towns other
 * than the provinces' own anchors, and open water, fall in the provinces and seas named after or around them, and
 * the features its README draws are where it says (Byzantium holding the straits, the Nile dividing Egypt, Bayuda
 * as Nubia). That the adjacency is exactly what the drawing shows is checked for every drawn variant in
 * drawn-variants-geometry.test.ts; the rules' facts in ancient-mediterranean-data.test.ts.
 */
import { describe, expect, it } from 'vitest';
import data from '../../maps/ancient-mediterranean/variant.json' with { type: 'json' };
import geometryJson from '../../maps/ancient-mediterranean/geometry.json' with { type: 'json' };
import { realPlaces } from './real-places.ts';

const { map, geometry, drawing, provinceAt } = realPlaces(data, geometryJson);

const misplaced = (places: [string, number, number, string][]) =>
  places.filter(([, lon, lat, id]) => provinceAt(lon, lat) !== id).map(([name, lon, lat, id]) => `${name} in ${provinceAt(lon, lat)}, not ${id}`);

describe('the Ancient Mediterranean map drawing', () => {
  // Towns inland or a little inland: the 1:50m coastline leaves some harbours (Ostia, Syracuse) at sea.
  it('puts ancient towns in the provinces around them (none of them a province’s anchor)', () => {
    expect(
      misplaced([
        ['Tibur', 12.8, 41.96, 'rom'],
        ['Pompeii', 14.49, 40.75, 'nea'],
        ['Tarentum', 17.24, 40.47, 'apu'],
        ['Brundisium', 17.94, 40.63, 'apu'],
        ['Florentia', 11.25, 43.77, 'etr'],
        ['Pisae', 10.4, 43.72, 'etr'],
        ['Ariminum', 12.57, 44.06, 'rav'],
        ['Aquileia', 13.37, 45.77, 'ven'],
        ['Leontini', 15.0, 37.29, 'sic'],
        ['Panormus', 13.36, 38.12, 'sic'],
        ['Caralis', 9.11, 39.22, 'sad'],
        ['Aleria', 9.51, 42.1, 'cor'],
        ['Palma', 2.65, 39.57, 'bal'],
        ['Utica', 10.06, 37.06, 'car'],
        ['Hadrumetum', 10.64, 35.83, 'tha'],
        ['Tingis', -5.8, 35.77, 'mau'],
        ['Oea', 13.18, 32.85, 'lep'],
        ['Berenice', 20.07, 32.12, 'cyr'],
        ['Apollonia', 21.97, 32.9, 'cyr'],
        ['Giza', 31.13, 29.98, 'mem'],
        ['Qena', 32.72, 26.16, 'thb'],
        ['Argos', 22.72, 37.63, 'spa'],
        ['Olympia', 21.63, 37.64, 'spa'],
        ['Thessalonica', 22.94, 40.64, 'mac'],
        ['Larissa', 22.42, 39.64, 'mac'],
        ['Megara', 23.35, 38.0, 'ath'],
        ['Ambracia', 20.98, 39.16, 'epi'],
        ['Dyrrachium', 19.6, 41.32, 'epi'],
        ['Burnum', 15.99, 44.02, 'dal'],
        ['Claudiopolis', 31.6, 40.73, 'bit'],
        ['Ephesus', 27.34, 37.94, 'mil'],
        ['Halicarnassus', 27.42, 37.04, 'mil'],
        ['Sardis', 28.04, 38.49, 'mil'],
        ['Iconium', 32.49, 37.87, 'isa'],
        ['Amisus', 36.33, 41.29, 'sip'],
        ['Apamea', 36.4, 35.42, 'ant'],
        ['Byblos', 35.72, 34.12, 'sid'],
        ['Palmyra', 38.27, 34.55, 'dam'],
        ['Bostra', 36.48, 32.52, 'ara'],
        ['Gaza', 34.5, 31.5, 'jer'],
        ['Aqaba', 35.0, 29.55, 'pet'],
        ['Joppa', 34.75, 32.05, 'jer'],
        ['Salamis (Cyprus)', 33.9, 35.18, 'cyp'],
        ['Knossos', 25.16, 35.3, 'cre'],
        ['Barcino', 2.17, 41.39, 'tar'],
        ['Carthago Nova', -0.98, 37.6, 'sag'],
        ['Toletum', -4.02, 39.86, 'lus'],
        ['Lugdunum', 4.83, 45.76, 'gau'],
        ['Nicaea (Gaul)', 7.26, 43.7, 'mas'],
        ['Carnuntum', 16.92, 48.11, 'vin'],
        ['Augusta Vindelicum', 10.9, 48.37, 'rha'],
        ['Tomis', 28.63, 44.17, 'dac'],
        ['Panticapaeum', 36.47, 45.36, 'che'],
      ]),
    ).toEqual([]);
  });

  it('puts the seas where their names say', () => {
    expect(
      misplaced([
        ['north Aegean', 25.3, 39.7, 'aeg'],
        ['western Black Sea', 31, 43, 'bla'],
        ['Tyrrhenian off Sardinia', 11, 39.5, 'tyn'],
        ['middle Adriatic', 14.8, 43.2, 'adr'],
        ['Ionian off Corfu', 19.3, 39.3, 'ion'],
        ['Gulf of Sidra', 18.5, 31.2, 'gos'],
        ['Gulf of Gabes', 11, 34.2, 'got'],
        ['Red Sea off Berenice', 36, 24.5, 'ree'],
        ['Libyan Sea off Crete', 24, 34.3, 'lib'],
        ['Karpathos strait', 28.2, 35.2, 'min'],
        ['Levant off Cyprus', 34, 34.3, 'syr'],
        ['Alboran Sea', -3.5, 36.2, 'ibe'],
      ]),
    ).toEqual([]);
  });

  it('draws its straits, the Nile and the isthmus as the README says', () => {
    // Byzantium holds the Bosporus, the Sea of Marmara and the Dardanelles and both their shores: the Black Sea and
    // the Aegean never meet.
    for (const [place, lon, lat] of [
      ['Bosporus', 29.05, 41.1],
      ['Sea of Marmara', 28.2, 40.7],
      ['Dardanelles', 26.4, 40.2],
      ['Chalcedon', 29.03, 40.98],
    ] as const)
      expect(provinceAt(lon, lat), place).toBe('byz');
    expect(drawing.borderLength('bla', 'aeg')).toBe(0);
    expect([drawing.borders('byz', 'bla'), drawing.borders('byz', 'aeg'), drawing.borders('byz', 'bit'), drawing.borders('byz', 'mil')]).toEqual([
      true,
      true,
      true,
      true,
    ]);
    // The Nile divides Egypt: Memphis the west bank, Thebes the east; Nubia above Aswan is Bayuda. No sea touches
    // Memphis or Bayuda (their fleets sail the river, a link).
    expect(provinceAt(30.7, 29.0)).toBe('mem');
    expect(provinceAt(31.7, 28.4)).toBe('thb');
    expect(provinceAt(32.5, 22.5)).toBe('bay');
    for (const riverPort of ['mem', 'bay'])
      expect(
        map.provinces.filter((p) => p.kind === 'sea' && drawing.borders(riverPort, p.id)).map((p) => p.id),
        riverPort,
      ).toEqual([]);
    // The isthmus of Corinth is Athens' border with Sparta, and Athens reaches the Ionian Sea beyond it by a link.
    expect([drawing.borders('ath', 'spa'), drawing.borders('ath', 'aeg')]).toEqual([true, true]);
    expect(drawing.borders('ath', 'ion') || geometry.links.some((l) => l.between.includes('ath') && l.between.includes('ion'))).toBe(true);
  });
});
