/** The umpire's notes on a battle: written by the umpire, read by the umpire until the battle is over, then by all. */
import type { FastifyInstance } from 'fastify';
import { MAX_BATTLE_NOTES } from '../../shared/api/battles.ts';
import { isUmpire, mayViewBattle, readsUmpireNotes } from '../access/battle-policy.ts';
import type { Auth } from '../auth/caller.ts';
import { conflict, forbidden, notFound } from '../errors.ts';
import { battleNotesView, battleNoteView } from '../views/battle.ts';
import { readBattle } from '../db/tables/battles.ts';
import { lockBattle } from './stored.ts';

type User = Auth['user'];

const author = { select: { id: true, username: true } } as const;

export async function readNotes(app: FastifyInstance, viewer: User | null, battleId: string) {
  const battle = await readBattle(app.prisma, battleId);
  if (!battle || !mayViewBattle(battle, viewer)) throw notFound('no battle with that id');
  if (!readsUmpireNotes(battle, viewer)) throw forbidden('forbidden', "the umpire's notes are the umpire's until the battle is over");
  const notes = await app.prisma.battleNote.findMany({ where: { battleId }, orderBy: { createdAt: 'asc' }, include: { author } });
  return battleNotesView(battle, notes, viewer);
}

export async function addNote(app: FastifyInstance, user: User, battleId: string, text: string) {
  return app.prisma.$transaction(async (tx) => {
    const battle = await lockBattle(tx, battleId);
    if (!mayViewBattle(battle, user)) throw notFound('no battle with that id');
    if (!isUmpire(battle, user)) throw forbidden('forbidden', 'only the umpire writes notes on a battle');
    if ((await tx.battleNote.count({ where: { battleId } })) >= MAX_BATTLE_NOTES)
      throw conflict('conflict', `a battle keeps at most ${MAX_BATTLE_NOTES} notes`);
    const note = await tx.battleNote.create({ data: { battleId, authorId: user.id, text, actionCount: battle.actionCount }, include: { author } });
    return battleNoteView(note);
  });
}
