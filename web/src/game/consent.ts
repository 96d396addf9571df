/**
 * A player's answer to a request of a game master who also plays, and what
 * the board tells of a request's outcome (carried out, refused, withdrawn,
 * lapsed and why), to the players asked and to the game master who asked.
 * Its own chunk: the game master's record (gm.svelte.ts) loads it with the
 * first request there is to answer or tell of.
 */
import { ApiError, api, type GmProposal } from '../lib/api.ts';
import { listInWords } from '../lib/format.ts';
import { outcomeInWords, proposalWords, stillToAnswer } from './proposal-words.ts';

/** What answering and telling need of the game master's record (gm.svelte.ts), which loads this module when they are. */
export interface ConsentRoom {
  readonly id: string;
  readonly game: { anonymous: boolean };
  readonly myPower: string | null;
  readonly isMaster: boolean;
  proposals: GmProposal[];
  readonly toldProposals: Set<string>;
  answering: boolean;
  answerError: string | null;
  phaseName(index: number): string | null;
  notify(text: string, kind?: 'info' | 'warn', options?: { until?: () => boolean }): void;
  loadProposals(quiet?: boolean): Promise<void>;
  loadLog(): Promise<void>;
  reloadGame(): Promise<void>;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Tells what became of a closed request, once, to those it concerned. */
export function tellOutcome(room: ConsentRoom, p: GmProposal): void {
  if (p.status === 'open' || room.toldProposals.has(p.id)) return;
  const me = room.myPower;
  const asker = room.isMaster;
  if (!asker && !(me && p.needed.includes(me))) return;
  // The game master withdrew it themselves: the tools say so.
  if (asker && p.status === 'withdrawn') return;
  room.toldProposals.add(p.id);
  room.notify(outcomeInWords(p, proposalWords(room, p), asker ? null : me), p.status === 'agreed' || p.status === 'withdrawn' ? 'info' : 'warn');
}

/** Agree to (or refuse) the game master's request; the last agreement carries it out. */
export async function answerProposal(room: ConsentRoom, p: GmProposal, agree: boolean): Promise<void> {
  if (room.answering) return;
  room.answering = true;
  room.answerError = null;
  try {
    const reply = await api.gm.answer(room.id, p.id, agree);
    const now = reply.proposal;
    room.proposals = room.proposals.some((q) => q.id === now.id) ? room.proposals.map((q) => (q.id === now.id ? now : q)) : [...room.proposals, now];
    if (now.status === 'open')
      room.notify(`You agreed to let the game master ${proposalWords(room, now)}; it waits for ${listInWords(stillToAnswer(now))}.`, 'info', {
        until: () => room.proposals.find((q) => q.id === p.id)?.status !== 'open',
      });
    else tellOutcome(room, now);
    if (reply.action) await Promise.all([room.loadLog(), room.reloadGame()]);
  } catch (e) {
    if (e instanceof ApiError && e.code === 'proposal_closed') {
      // Closed before the answer came (withdrawn, refused by another, or the game moved on): say what became of it.
      await room.loadProposals(true);
      const now = room.proposals.find((q) => q.id === p.id);
      if (now && now.status !== 'open') tellOutcome(room, now);
      else room.answerError = message(e);
    } else room.answerError = message(e);
  } finally {
    room.answering = false;
  }
}
