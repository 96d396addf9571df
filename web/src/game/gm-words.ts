/**
 * The game master's log in words: each entry as one sentence, times in the
 * reader's own time zone. Presentation only (the log's shape is GmAction in
 * shared/api/gm.ts); a module free of zod, so that pages in the first load
 * (the lobby) can use its helpers without the schemas.
 */
import type { GmAction } from '../../../shared/api/gm.ts';
import { EXPORTED_NAMES_KEY, IMPORTED_ENTRY_KEY } from '../../../shared/api/imported-log.ts';
import { localTime } from './logic.ts';
import { listInWords, spanInWords } from '../lib/format.ts';
import { RULESET_NAMES } from '../battles/battle-words.ts';

const plural = (n: number, word: string, many = `${word}s`) => `${n} ${n === 1 ? word : many}`;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const isTime = (value: unknown): value is string => typeof value === 'string' && !Number.isNaN(Date.parse(value));

/** Keys of details that are not the action's own facts: names, and where an imported entry comes from. */
const NOT_FACTS = new Set(['users', 'importedActor', EXPORTED_NAMES_KEY, IMPORTED_ENTRY_KEY]);

/** Details of an action this client does not know, shortened so that they wrap: no JSON, no long words. */
function briefly(details: Record<string, unknown>): string {
  const shown = Object.entries(details)
    .filter(([key, value]) => !NOT_FACTS.has(key) && value !== null && typeof value !== 'object')
    .slice(0, 4)
    .map(([key, value]) => `${key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase()} ${String(value).slice(0, 40)}`);
  return shown.length ? ` (${shown.join(', ')})` : '';
}

/**
 * Whether a log entry was copied from the export of an imported game (not done
 * on this server), and who did it in the exported game, when the server shows
 * names (`details.exported.actor`; entries imported before it was kept there:
 * `details.importedActor`). Null for this server's own entries.
 */
export function importedFrom(entry: Pick<GmAction, 'action' | 'details'>): { actor: string | null } | null {
  const d = entry.details;
  if (d[IMPORTED_ENTRY_KEY] !== true && !('importedActor' in d)) return null;
  return { actor: text(record(d[EXPORTED_NAMES_KEY]).actor) ?? text(d.importedActor) };
}

/**
 * A log entry as one sentence for people: what the game master did, with
 * times in the reader's local time (`time`). Names appear only where the
 * server left them in: this server's users under `details.users`, those of
 * an exported game (an import's entry, entries copied from the export) under
 * `details.exported.users`, said to be the exported game's. The actor and the
 * entry's own time are left to the page.
 */
export function describeGmAction(entry: Pick<GmAction, 'action' | 'details'>, time: (iso: string) => string = localTime): string {
  const d = entry.details;
  const origin = importedFrom(entry);
  // An import's entry kept the exported game's names under `users` before they were kept apart.
  const exportedNames = record(record(d[EXPORTED_NAMES_KEY]).users);
  const users = origin || entry.action === 'import' ? { ...(entry.action === 'import' ? record(d.users) : {}), ...exportedNames } : record(d.users);
  const phase = text(d.phaseName) ?? (count(d.phase) !== null ? `phase ${count(d.phase)}` : 'the phase');
  const power = text(d.power) ?? 'a power';
  let sentence: string;
  switch (entry.action) {
    case 'process-now': {
      const next = text(d.next);
      sentence = `Processed ${phase} before its deadline; ${next ? `${next} began` : 'the game ended'}.`;
      break;
    }
    case 'change-deadline': {
      const from = isTime(d.from) ? d.from : null;
      const to = isTime(d.to) ? d.to : null;
      // A phase held for its sea battles: the seas still waiting had their auto-resolve time moved, not the phase.
      const seas = Array.isArray(d.seas) ? d.seas.map((sea) => text(record(sea).sea)).filter((sea): sea is string => sea !== null) : [];
      if (seas.length) {
        const what = `the time ${listInWords(seas)} ${seas.length === 1 ? 'has' : 'have'} to be fought in ${phase}`;
        const moved = from && to ? (Date.parse(to) - Date.parse(from)) / 1000 : null;
        sentence =
          moved !== null && to
            ? `Moved ${what} ${spanInWords(moved)} ${moved < 0 ? 'earlier' : 'later'}: ${seas.length === 1 ? 'it is' : 'they are'} auto-resolved at ${time(to)} if not decided by then.`
            : `Changed ${what}.`;
      } else if (!to) sentence = `Changed the deadline of ${phase}.`;
      else if (!from) sentence = `Set the deadline of ${phase} to ${time(to)}.`;
      else {
        const moved = (Date.parse(to) - Date.parse(from)) / 1000;
        sentence = `Moved the deadline of ${phase} ${spanInWords(moved)} ${moved < 0 ? 'earlier' : 'later'}, from ${time(from)} to ${time(to)}.`;
      }
      break;
    }
    case 'pause':
      sentence = `Paused the clock in ${phase}.`;
      break;
    case 'resume': {
      const moved = count(d.pausedSeconds) ?? 0;
      const deadline = isTime(d.deadlineAt) ? time(d.deadlineAt) : null;
      sentence = !deadline
        ? `Resumed the clock in ${phase}.`
        : moved >= 1
          ? `Resumed the clock in ${phase}; the deadline moved ${spanInWords(moved)} later, to ${deadline}.`
          : `Resumed the clock in ${phase}; the deadline stays ${deadline}.`;
      break;
    }
    case 'replace-player': {
      const to = text(users.to);
      const from = text(users.from);
      sentence = !to
        ? `Gave ${power}'s seat to another player.`
        : from
          ? `Gave ${power}'s seat to ${to}, replacing ${from}.`
          : `Gave ${power}'s empty seat to ${to}.`;
      break;
    }
    case 'civil-disorder':
      sentence = `Put ${power} in civil disorder: phases no longer wait for its orders.`;
      break;
    case 'enter-orders': {
      const orders = count(d.orders);
      const ready = d.ready === true ? ', and marked it ready' : '';
      sentence =
        orders === 0
          ? `Cleared ${power}'s orders in ${phase} (its units hold)${ready}.`
          : // \`replaced\`: whether orders were saved for the power before (absent from entries logged before it was kept).
            `Entered ${orders === null ? 'orders' : plural(orders, 'order')} for ${power} in ${phase}${d.replaced === false ? '' : ', replacing its saved orders'}${ready}.`;
      break;
    }
    case 'rollback': {
      const discarded = Array.isArray(d.discarded) ? d.discarded.filter((name): name is string => typeof name === 'string') : [];
      const later = discarded.slice(1);
      const kept = count(d.powersWithOrders);
      if (d.gameHadEnded === true && discarded.length === 0) {
        sentence = `Re-opened the game, which had ended, at ${phase}.`;
        break;
      }
      sentence = `Rolled back to ${phase}, which is open again`;
      if (d.gameHadEnded === true) sentence += ', and the game, which had ended, goes on';
      if (later.length)
        sentence += `; ${later.length === 1 ? 'the later phase' : `${later.length} later phases`} (${listInWords(later)}) ${later.length === 1 ? 'was' : 'were'} discarded`;
      if (kept === 0) sentence += '; no orders had been saved for it';
      else if (kept !== null) sentence += `; ${kept === 1 ? "1 power's orders stay" : `${kept} powers' orders stay`} to be adjudicated again`;
      sentence += '.';
      break;
    }
    case 'end-game': {
      const outcome = record(d.outcome);
      const shared = Array.isArray(outcome.powers) ? outcome.powers.filter((p): p is string => typeof p === 'string') : [];
      const where = text(d.phaseName) ? ` in ${phase}` : '';
      if (outcome.kind === 'draw' && shared.length) sentence = `Ended the game${where} as a draw between ${listInWords(shared)}.`;
      else if (outcome.kind === 'concession' && shared.length) sentence = `Ended the game${where} with a concession to ${shared[0]}.`;
      else sentence = `Ended the game${where}.`;
      break;
    }
    case 'invite-game-master': {
      const invited = text(users.invited);
      sentence = `Asked ${invited ?? 'another user'} to take over as game master.`;
      break;
    }
    case 'take-over': {
      const from = text(users.from);
      sentence = from ? `Took over as game master from ${from}.` : 'Took over as game master.';
      break;
    }
    case 'sitter': {
      const sitter = text(users.sitter) ?? 'A sitter';
      const until = isTime(d.until) ? `, until ${time(d.until)}` : '';
      sentence = `${sitter} sits for ${power} while its player is away${until}.`;
      break;
    }
    case 'clock-vote': {
      const what =
        d.kind === 'extend'
          ? `extend the deadline by ${spanInWords(count(d.extendSeconds) ?? 0)}`
          : d.kind === 'resume'
            ? 'resume the clock'
            : 'pause the clock';
      const by = text(d.proposedBy) ?? 'a power';
      const reason = text(d.reason);
      sentence =
        d.event === 'proposed'
          ? `${by} proposed to ${what}; the players vote.`
          : d.event === 'passed'
            ? `The players voted to ${what} (${by}'s proposal).`
            : d.event === 'withdrawn'
              ? `${by} withdrew the proposal to ${what}.`
              : `The vote to ${what} failed${reason ? `: ${reason}` : ''}.`;
      break;
    }
    case 'campaign': {
      const ruleset = text(d.ruleset);
      const hours = count(d.battleHours);
      sentence = `Set the campaign's sea battles: fought under ${ruleset ? (RULESET_NAMES[ruleset] ?? ruleset) : 'a battle ruleset'}`;
      sentence += hours !== null ? `, ${plural(hours, 'hour')} for a phase's battles before the seas still waiting are auto-resolved.` : '.';
      break;
    }
    case 'sea-sides': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      const sides = Array.isArray(d.sides) ? d.sides.map((side) => (Array.isArray(side) ? side.filter((p): p is string => typeof p === 'string') : [])) : [];
      sentence =
        sides.length === 2 && sides.every((side) => side.length)
          ? `Set the sides in ${sea} (${phase}): ${listInWords(sides[0])} against ${listInWords(sides[1])}.`
          : `Set the sides in ${sea} (${phase}).`;
      break;
    }
    case 'decide-sea': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      const outcome = record(d.outcome);
      const winner = text(outcome.winner);
      sentence = winner
        ? `Decided ${sea} in ${phase}: ${winner} won the sea.`
        : outcome.standoff === true
          ? `Decided ${sea} in ${phase}: nobody won it, a standoff.`
          : `Decided ${sea} in ${phase}.`;
      break;
    }
    case 'waive-sea': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      sentence = `Waived the battle for ${sea} in ${phase}: the ordinary rules decide it.`;
      break;
    }
    case 'fight-sea': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      sentence = `Opened the battle for ${sea} in ${phase}: its outcome decides the sea.`;
      break;
    }
    case 'auto-resolve-sea': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      sentence =
        d.expired === true
          ? `The battles' time ran out: the computer fought ${sea} in ${phase} out on the server's dice.`
          : Array.isArray(d.agreedBy) && d.agreedBy.length
            ? `As ${listInWords(d.agreedBy.filter((p): p is string => typeof p === 'string'))} agreed, the computer fought ${sea} in ${phase} out on the server's dice.`
            : `Had the computer fight ${sea} in ${phase} out on the server's dice.`;
      break;
    }
    case 'abandon-sea': {
      const sea = text(d.seaName) ?? text(d.sea) ?? 'a sea';
      const actions = count(d.actions);
      const after = actions === null ? '' : actions === 0 ? ' before its first move' : ` after ${plural(actions, 'action')}`;
      sentence = `Abandoned the battle for ${sea} in ${phase}${after}: nobody won it, and the sea is undecided again.`;
      break;
    }
    case 'finalize':
      sentence =
        "Made the result final: the game's private press (and an anonymous game's players' names) is public now, and the game can no longer be re-opened.";
      break;
    case 'import': {
      const phases = count(d.phases);
      const exported = isTime(d.exportedAt) ? ` exported ${time(d.exportedAt)}` : '';
      const master = text(users.gameMaster);
      const rechecked = Array.isArray(record(d.engineVersions).rechecked) ? (record(d.engineVersions).rechecked as unknown[]).length : 0;
      sentence = `Imported the game from a file${exported}`;
      if (phases !== null) sentence += `, with ${plural(phases, 'phase')}`;
      sentence += d.complete === false ? ' (only what its exporter could see)' : '';
      if (master) sentence += `; its game master in the exported game was ${master}`;
      if (rechecked) sentence += `; ${plural(rechecked, 'phase')} recorded under another engine version adjudicated the same here`;
      sentence += '.';
      break;
    }
    default: {
      const words = entry.action.replace(/[-_]+/g, ' ').trim();
      sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}${briefly(d)}.`;
    }
  }
  // A game master who plays acted with the other players' consent: who agreed.
  const agreed = record(d.consent).agreed;
  const agreedBy = Array.isArray(agreed) ? agreed.filter((p): p is string => typeof p === 'string') : [];
  if (agreedBy.length) sentence = `${sentence.replace(/\.$/, '')} (agreed by ${listInWords(agreedBy)}).`;
  // Entries copied from the export: done elsewhere, by someone of the other server, before the game came here.
  if (origin) sentence += ` (Imported: done in the exported game${origin.actor ? `, by ${origin.actor}` : ''}, before it came here.)`;
  return sentence;
}
