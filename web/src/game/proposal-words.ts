/**
 * A game master who also plays a power asks the other players' consent for
 * some tools (CONSENT_TOOLS): their requests in words, for the notice on a
 * player's board, the game master's tools and the Game tab. Presentation only
 * (the request's shape is GmProposal in shared/api/gm.ts), free of zod.
 */
import type { GmProposal } from '../../../shared/api/gm.ts';
import { listInWords } from '../lib/format.ts';

type Request = Pick<GmProposal, 'action' | 'request' | 'phaseIndex'>;

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() ? value : null);
const count = (value: unknown): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);
const names = (value: unknown): string[] => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : []);

/**
 * What the game master asks to do, as the end of "asks to …": "process Spring 240 BC Movement now", "roll the
 * game back to …", "give Egypt's seat to bob". `phaseName` names a phase by its index (null: not known here).
 */
export function requestInWords(p: Request, phaseName: (index: number) => string | null, anonymous = false): string {
  const r = p.request;
  const power = text(r.power) ?? 'a power';
  switch (p.action) {
    case 'process-now':
      return `process ${phaseName(p.phaseIndex) ?? 'the phase'} now`;
    case 'rollback': {
      const index = count(r.phase);
      const name = index === null ? null : phaseName(index);
      // The phase the game stood in when asked: in a game that has ended, re-opening it where it ended.
      if (index === p.phaseIndex) return `re-open the game at ${name ?? 'the phase it ended in'}`;
      return `roll the game back to ${name ?? (index === null ? 'an earlier phase' : `phase ${index}`)}, discarding the phases after it`;
    }
    case 'end-game': {
      const powers = names(r.powers);
      if (r.outcome === 'concession' && powers.length) return `end the game now with a concession to ${powers[0]}`;
      return `end the game now as a draw between ${powers.length ? listInWords(powers) : 'every surviving power'}`;
    }
    case 'replace-player':
      return `give ${power}'s seat to ${text(r.username) ?? 'another player'}`;
    case 'civil-disorder':
      return `put ${power} in civil disorder`;
    case 'invite-game-master':
      return `ask ${text(r.username) ?? 'another user'} to take over as game master`;
    case 'finalize':
      return `make the result final now, publishing the private press${anonymous ? " and the players' names" : ''}`;
  }
  // A tool this client does not know yet (a newer server).
  return String(p.action).replace(/-/g, ' ');
}

/** What a request asks, in words, as the game's page knows its phases. */
export function proposalWords(room: { phaseName(index: number): string | null; game: { anonymous: boolean } }, p: Request): string {
  return requestInWords(p, (i) => room.phaseName(i), room.game.anonymous);
}

/** The powers still to answer an open request. */
export const stillToAnswer = (p: Pick<GmProposal, 'needed' | 'agreed'>): string[] => p.needed.filter((power) => !p.agreed.includes(power));

/** Why a game master who plays asks first, in one line. */
export const WHY_CONSENT =
  'You also play a power here, so the tools that could help your own power (process now, roll back, end the game, seats, civil disorder, handing the game on, making the result final) act only once every other player agrees.';

/**
 * What became of a request, told to the players who were asked and to the game master: `me` is the reader's power
 * (null for the game master, who asked).
 */
export function outcomeInWords(p: GmProposal, what: string, me: string | null): string {
  const asked = me === null ? `your request to ${what}` : `the game master's request to ${what}`;
  switch (p.status) {
    case 'agreed':
      return `${me === null ? 'Every other player' : 'All the players asked'} agreed: ${asked} was carried out.`;
    case 'refused':
      return `${p.refusedBy === me ? 'You' : (p.refusedBy ?? 'A player')} refused ${asked}: nothing was done.`;
    case 'withdrawn':
      return me === null ? `You withdrew your request to ${what}.` : `The game master withdrew the request to ${what}: nothing was done.`;
    case 'lapsed':
      return `${asked.charAt(0).toUpperCase()}${asked.slice(1)} lapsed, ${p.note ? `as it could no longer be carried out (${p.note})` : 'as the game moved on before every player had answered'}: nothing was done.`;
    default:
      return `${asked.charAt(0).toUpperCase()}${asked.slice(1)} waits for ${listInWords(stillToAnswer(p))}.`;
  }
}
