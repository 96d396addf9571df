/**
 * Names for the ships of a campaign battle, so that its log reads "Penteres Tanit rams Hepteres Arsinoe" and not
 * "ship 7 rams ship 12". Diadochi V's powers have names of their own gods, cities and queens; any other power numbers
 * its ships. A side with more ships than names goes round again with a numeral (Tanit II).
 */
const NAMES: Readonly<Record<string, readonly string[]>> = {
  Egypt: ['Isis', 'Arsinoe', 'Berenike', 'Soteira', 'Ptolemais', 'Sarapis', 'Pharos', 'Neilos', 'Philadelphos', 'Alexandreia', 'Kanopos', 'Hathor'],
  Macedonia: ['Antigonis', 'Pella', 'Demetrias', 'Nike', 'Herakles', 'Poseidon', 'Aigai', 'Olympias', 'Basileia', 'Thessalonike', 'Isthmia', 'Kassandreia'],
  Syria: ['Seleukis', 'Antiocheia', 'Apameia', 'Laodikeia', 'Sidon', 'Tyros', 'Arados', 'Byblos', 'Apollon', 'Nikator', 'Stratonike', 'Berytos'],
  Rome: ['Victoria', 'Fortuna', 'Concordia', 'Mars', 'Neptunus', 'Roma', 'Ostia', 'Quirinus', 'Pietas', 'Spes', 'Bellona', 'Fides'],
  Carthage: ['Tanit', 'Melqart', 'Eshmun', 'Byrsa', 'Utica', 'Hadrumetum', 'Motya', 'Lilybaeum', 'Astarte', 'Reshef', 'Baal', 'Gades'],
};

const NUMERALS = ['', ' II', ' III', ' IV', ' V', ' VI', ' VII', ' VIII', ' IX', ' X'];

/** A namer for one power's ships in one battle: each call gives the next name, none twice. */
export function shipNamer(power: string): () => string {
  const names = NAMES[power];
  let n = 0;
  return () => {
    const i = n++;
    if (!names) return `${power} ${i + 1}`;
    const round = Math.floor(i / names.length);
    return `${names[i % names.length]}${NUMERALS[round] ?? ` ${round + 1}`}`;
  };
}
