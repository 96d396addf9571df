/**
 * `npm run bench`: every benchmark of the project, printed as a table and as
 * one JSON line per figure. The engine is bundled by esbuild first, as the
 * browser receives it (no dev-time name-keeping wrappers), and run in a fresh
 * Node process. `npm run bench -- engine`, `-- naval`, `-- web`, `-- server`, `-- notify` or `-- map-images` runs one section;
 * `-- naval-strength` (the computer opponents over 1,000 battles a ruleset, most of an hour) runs only when named.
 */
import { engineBenchmarks } from './engine.ts';
import { printFigures } from './stats.ts';
import { printWebFigures, webBenchmarks } from './web.ts';
import { printServerFigures, ratios, serverBenchmarks } from './server.ts';
import { navalBenchmarks, printNavalFigures } from './naval.ts';
import { notifyBenchmarks, printNotifyFigures } from './notify.ts';
import { mapImageBenchmarks } from './map-images.ts';
import { measureStrength, printStrength, strengthBattles, strengthRulesets } from './naval-strength.ts';

// npm runs scripts from the package root.
const root = process.cwd();
const only = process.argv.slice(2);
if (only.length === 0 || only.includes('engine')) {
  console.log('# Engine: adjudication per phase (µs)');
  printFigures(engineBenchmarks(root));
}
if (only.length === 0 || only.includes('naval')) {
  console.log('# Naval battles: each ruleset engine (µs per call, battles per second)');
  printNavalFigures(await navalBenchmarks());
}
if (only.length === 0 || only.includes('web')) {
  console.log('# Web client: bundle per view (gzipped) and the game view in Chromium (ms, cold cache)');
  printWebFigures(await webBenchmarks(root));
}
if (only.length === 0 || only.includes('server')) {
  console.log('# Server: the production build against PostgreSQL, load from this process (figures in ms, rates per second)');
  const figures = await serverBenchmarks(root);
  printServerFigures([...figures, ...ratios(figures)]);
}
if (only.length === 0 || only.includes('notify')) {
  console.log('# Notifications: 1,000 games × 7 recipients of mail written to the outbox together, delivered to a local SMTP server (seconds, MB)');
  printNotifyFigures(await notifyBenchmarks(root));
}
if (only.length === 0 || only.includes('map-images')) {
  console.log('# Map images: one processed phase drawn as the server draws it, uncached (µs)');
  const { figures, pngBytes } = await mapImageBenchmarks();
  printFigures(figures);
  console.log(`PNG of 1600 × 944: ${Math.round(pngBytes / 1024)} KB`);
}
if (only.includes('naval-strength')) {
  const battles = strengthBattles();
  console.log(`# Naval battles: the computer opponent against random legal play, ${battles} battles a ruleset over its scenarios, sides alternating`);
  for (const id of strengthRulesets()) printStrength(measureStrength(id, battles, (line) => console.log(`  ${line}`)));
}
