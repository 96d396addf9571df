/**
 * Standard's drawing (maps/standard/geometry.json): recognisably the usual
 * board (real cities fall in the provinces named after or around them), and
 * its conventional exceptions are drawn as the README says. That the
 * adjacency is exactly what the drawing shows is checked for every drawn
 * variant in drawn-variants-geometry.test.ts.
 */
import { describe, expect, it } from 'vitest';
import data from '../../maps/standard/variant.json' with { type: 'json' };
import geometryJson from '../../maps/standard/geometry.json' with { type: 'json' };
import { realPlaces } from './real-places.ts';

const { map, geometry, drawing, provinceAt } = realPlaces(data, geometryJson);

describe('the Standard map drawing', () => {
  it('puts real places in the provinces the usual board puts them in', () => {
    const places: [string, number, number, string][] = [
      ['London', -0.13, 51.5, 'lon'],
      ['Glasgow', -4.25, 55.86, 'cly'],
      ['Aberdeen', -2.1, 57.15, 'edi'],
      ['Manchester', -2.24, 53.48, 'lvp'],
      ['Leeds', -1.55, 53.8, 'yor'],
      ['Cardiff', -3.18, 51.48, 'wal'],
      ['Rennes', -1.68, 48.11, 'bre'],
      ['Amiens', 2.3, 49.9, 'pic'],
      ['Orléans', 1.9, 47.9, 'par'],
      ['Toulouse', 1.44, 43.6, 'gas'],
      ['Lyon', 4.83, 45.76, 'bur'],
      ['Toulon', 5.93, 43.12, 'mar'],
      ['Antwerp', 4.4, 51.22, 'bel'],
      ['Rotterdam', 4.48, 51.92, 'hol'],
      ['Hamburg', 9.99, 53.55, 'kie'],
      ['Cologne', 6.96, 50.94, 'ruh'],
      ['Stuttgart', 9.18, 48.78, 'mun'],
      ['Stettin', 14.55, 53.43, 'ber'],
      ['Danzig', 18.65, 54.35, 'pru'],
      ['Breslau', 17.03, 51.1, 'sil'],
      ['Copenhagen', 12.57, 55.68, 'den'],
      ['Gothenburg', 11.97, 57.7, 'swe'],
      ['Bergen', 5.32, 60.39, 'nwy'],
      ['Tampere', 23.76, 61.5, 'fin'],
      ['Archangel', 40.5, 64.55, 'stp'],
      ['Tallinn', 24.75, 59.44, 'lvn'],
      ['Smolensk', 32.05, 54.78, 'mos'],
      ['Łódź', 19.46, 51.76, 'war'],
      ['Kiev', 30.52, 50.45, 'ukr'],
      ['Odessa', 30.73, 46.48, 'sev'],
      ['Kraków', 19.94, 50.06, 'gal'],
      ['Prague', 14.42, 50.08, 'boh'],
      ['Graz', 15.44, 47.07, 'vie'],
      ['Cluj', 23.6, 46.77, 'bud'],
      ['Sarajevo', 18.41, 43.86, 'tri'],
      ['Innsbruck', 11.4, 47.26, 'tyr'],
      ['Niš', 21.9, 43.32, 'ser'],
      ['Tirana', 19.82, 41.33, 'alb'],
      ['Salonika', 22.94, 40.64, 'gre'],
      ['Varna', 27.91, 43.2, 'bul'],
      ['Iași', 27.6, 47.16, 'rum'],
      ['Constantinople', 28.98, 41.01, 'con'],
      ['Samsun', 36.33, 41.29, 'ank'],
      ['Antalya', 30.7, 36.9, 'smy'],
      ['Trebizond', 39.72, 41.0, 'arm'],
      ['Damascus', 36.3, 33.5, 'syr'],
      ['Milan', 9.19, 45.46, 'pie'],
      ['Bologna', 11.34, 44.49, 'ven'],
      ['Florence', 11.25, 43.77, 'tus'],
      ['Rome', 12.49, 41.89, 'rom'],
      ['Reggio', 15.65, 38.11, 'nap'],
      ['Lecce', 18.17, 40.35, 'apu'],
      ['Seville', -5.98, 37.39, 'spa'],
      ['Porto', -8.61, 41.15, 'por'],
      ['Oran', -0.64, 35.7, 'naf'],
      ['Sousse', 10.64, 35.83, 'tun'],
      ['Zürich', 8.54, 47.37, ''],
      ['Dublin', -6.26, 53.35, ''],
      ['Benghazi', 20.07, 32.12, ''],
    ];
    const wrong = places.filter(([, lon, lat, id]) => provinceAt(lon, lat) !== (id || null)).map(([name, lon, lat]) => `${name}: ${provinceAt(lon, lat)}`);
    expect(wrong).toEqual([]);
  });

  it('puts the seas where the usual board has them', () => {
    const waters: [number, number, string][] = [
      [3, 56, 'nth'],
      [-2.5, 50.1, 'eng'],
      [-5.3, 53.3, 'iri'],
      [-15, 42, 'mid'],
      [2, 66, 'nrg'],
      [38, 70.6, 'bar'],
      [20.3, 62.5, 'bot'],
      [18.5, 55.7, 'bal'],
      [9.5, 57.9, 'ska'],
      [7.6, 54.2, 'hel'],
      [5, 42.4, 'gol'],
      [3, 38.3, 'wes'],
      [12, 40, 'tys'],
      [15.5, 42.8, 'adr'],
      [18.5, 37, 'ion'],
      [25, 38.6, 'aeg'],
      [30, 34, 'eas'],
      [34, 43.5, 'bla'],
    ];
    expect(waters.filter(([lon, lat, id]) => provinceAt(lon, lat) !== id)).toEqual([]);
  });

  it('draws the conventional exceptions as links, and the data has no special links of its own', () => {
    expect(map.specialLinks).toEqual([]);
    expect(geometry.links.map((l) => `${l.kind} ${l.between.join(' ')}`).sort()).toEqual(['canal con aeg bla', 'canal kie hel bal', 'passage den swe']);
    // Denmark and Sweden meet only across the Sound, and the Sound is no sea route between the Skagerrak and the Baltic.
    expect(drawing.borderLength('den', 'swe')).toBe(0);
    expect(drawing.borderLength('ska', 'bal')).toBe(0);
    // Kiel and Constantinople touch the waters on both sides themselves.
    for (const [p, a, b] of [
      ['kie', 'hel', 'bal'],
      ['con', 'aeg', 'bla'],
    ])
      expect([drawing.borders(p, a), drawing.borders(p, b)], p).toEqual([true, true]);
  });

  it('gives the two-coast provinces their coasts on the right seas', () => {
    const on = (id: string, sea: string) => [...drawing.locsOn(id, sea)].sort();
    expect(on('spa', 'mid')).toEqual(['spa/nc', 'spa/sc']);
    expect(on('spa', 'wes')).toEqual(['spa/sc']);
    expect(on('spa', 'gol')).toEqual(['spa/sc']);
    expect(on('bul', 'bla')).toEqual(['bul/ec']);
    expect(on('bul', 'aeg')).toEqual(['bul/sc']);
    expect(on('stp', 'bar')).toEqual(['stp/nc']);
    expect(on('stp', 'bot')).toEqual(['stp/sc']);
  });
});
