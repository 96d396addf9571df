/**
 * What must hold of a database after faults, checked from the database alone
 * with the engine (plain `node:assert`, so soaks outside vitest use it too):
 *
 * - every game's phases are 0…n, all processed but the open last one, each
 *   starting where the previous ended, and each re-adjudicates to what is stored
 *   from the orders stored (nothing half-written);
 * - each processed phase adjudicated exactly the latest submission of every
 *   power (no acknowledged submission lost from its phase);
 * - each phase was processed exactly once: the event log (written in the
 *   processing transaction) has one `phase.processed` per processed phase and
 *   none for an open one, and each channel's numbers run 1…n without gaps;
 * - every submission a client was told was stored (2xx) is there, unchanged.
 */
import assert from 'node:assert/strict';
import { adjudicate, endLoanOf, GameStateSchema, getVariant, lendCentre, type GameState, type Order, type SubmittedOrder } from '../../../shared/index.ts';
import type { PrismaClient } from '../../../server/db/database.ts';

/** A submission the server acknowledged with 2xx. */
export type Acknowledged = { id: string; gameId: string; phaseIndex: number; power: string; orders: Order[] };

export type Verified = { games: number; phasesProcessed: number; submissionsStored: number; acknowledged: number };

type LoanAction = { action: 'lend' | 'end'; centre: string; from: string; to: string };
const plain = (value: unknown) => JSON.parse(JSON.stringify(value));

export async function verifyGames(prisma: PrismaClient, gameIds: readonly string[], acknowledged: readonly Acknowledged[]): Promise<Verified> {
  let phasesProcessed = 0;
  let submissionsStored = 0;
  for (const gameId of gameIds) {
    const game = await prisma.game.findUniqueOrThrow({ where: { id: gameId } });
    const variant = getVariant(game.variantId)!;
    const phases = await prisma.phase.findMany({ where: { gameId }, orderBy: { index: 'asc' } });
    assert.deepEqual(
      phases.map((phase) => phase.index),
      phases.map((_, i) => i),
      `game ${gameId}: phases are numbered 0…n`,
    );
    const open = phases.filter((phase) => phase.status === 'open');
    if (game.status === 'active')
      assert.deepEqual(
        open.map((phase) => phase.index),
        [phases.length - 1],
        `game ${gameId}: only the last phase is open`,
      );
    else assert.equal(open.length <= 1, true);

    const submissions = await prisma.orderSubmission.findMany({ where: { gameId }, orderBy: { seq: 'desc' } }); // latest first, as the server counts them
    submissionsStored += submissions.length;
    let previousAfter: GameState | null = null;
    for (const phase of phases) {
      let state = GameStateSchema.parse(phase.stateBefore);
      if (previousAfter) assert.deepEqual(plain(state), plain(previousAfter), `game ${gameId}: phase ${phase.index} starts where ${phase.index - 1} ended`);
      for (const action of phase.loanActions as unknown as LoanAction[]) {
        const loan = { centre: action.centre, from: action.from, to: action.to };
        const result = action.action === 'lend' ? lendCentre(variant, state, loan) : endLoanOf(variant, state, loan);
        assert.ok(result.ok, `game ${gameId}: loan action ${JSON.stringify(action)}`);
        state = result.value;
      }
      if (phase.status !== 'processed') {
        assert.equal(phase.stateAfter, null, `game ${gameId}: open phase ${phase.index} has no state after`);
        assert.equal(phase.results, null);
        continue;
      }
      phasesProcessed += 1;
      // The latest submission of each power in this phase is exactly what was adjudicated.
      const latest = new Map<string, (typeof submissions)[number]>();
      for (const row of submissions) if (row.phaseId === phase.id && !latest.has(row.power)) latest.set(row.power, row);
      const adjudicated = phase.orders as unknown as SubmittedOrder[];
      for (const power of variant.powers) {
        const stored = (latest.get(power)?.orders ?? []) as Array<{ order: Order }>;
        assert.deepEqual(
          adjudicated.filter((o) => o.power === power).map((o) => o.order),
          stored.map((o) => o.order),
          `game ${gameId} phase ${phase.index}: ${power}'s latest submission is what was adjudicated`,
        );
      }
      const outcome = adjudicate(variant, state, adjudicated);
      assert.ok(outcome.ok, `game ${gameId} phase ${phase.index} adjudicates`);
      const again = plain(outcome.value);
      assert.deepEqual(phase.results, again.results, `game ${gameId} phase ${phase.index}: results reproduce`);
      assert.deepEqual(phase.events, again.events);
      assert.deepEqual(phase.disbanded, again.disbanded);
      assert.deepEqual(phase.stateAfter, again.next, `game ${gameId} phase ${phase.index}: state after reproduces`);
      previousAfter = GameStateSchema.parse(phase.stateAfter);
    }

    // Exactly once, from the event log written in the same transactions.
    const channel = `game:${gameId}`;
    const logged = await prisma.liveEventLog.findMany({ where: { channel }, orderBy: { seq: 'asc' } });
    const counter = await prisma.liveChannelSeq.findUnique({ where: { channel } });
    const seqs = logged.map((row) => Number(row.seq));
    assert.deepEqual(
      seqs,
      seqs.map((_, i) => i + 1),
      `game ${gameId}: event numbers run 1…n`,
    );
    assert.equal(Number(counter?.seq ?? 0), seqs.length, `game ${gameId}: the channel counter matches the log`);
    const processedEvents = new Map<number, number>();
    for (const row of logged) {
      const event = row.event as { type: string; phase?: { index: number } };
      if (event.type === 'phase.processed') processedEvents.set(event.phase!.index, (processedEvents.get(event.phase!.index) ?? 0) + 1);
    }
    for (const phase of phases) {
      assert.equal(
        processedEvents.get(phase.index) ?? 0,
        phase.status === 'processed' ? 1 : 0,
        `game ${gameId}: phase ${phase.index} (${phase.status}) was processed ${processedEvents.get(phase.index) ?? 0} times`,
      );
    }
  }

  // Every acknowledged submission is stored as acknowledged.
  const ids = acknowledged.map((ack) => ack.id);
  const rows = new Map<string, { phaseId: string; power: string; orders: unknown }>();
  for (let i = 0; i < ids.length; i += 1000) {
    for (const row of await prisma.orderSubmission.findMany({ where: { id: { in: ids.slice(i, i + 1000) } } })) rows.set(row.id, row);
  }
  const phaseIds = new Map<string, string>();
  for (const phase of await prisma.phase.findMany({ where: { gameId: { in: [...gameIds] } }, select: { id: true, gameId: true, index: true } })) {
    phaseIds.set(`${phase.gameId}/${phase.index}`, phase.id);
  }
  const lost = acknowledged.filter((ack) => !rows.has(ack.id));
  assert.deepEqual(lost, [], `${lost.length} acknowledged submissions are missing`);
  for (const ack of acknowledged) {
    const row = rows.get(ack.id)!;
    assert.equal(row.phaseId, phaseIds.get(`${ack.gameId}/${ack.phaseIndex}`), `submission ${ack.id} is in its phase`);
    assert.equal(row.power, ack.power);
    assert.deepEqual(
      (row.orders as Array<{ order: Order }>).map((o) => plain(o.order)),
      plain(ack.orders),
      `submission ${ack.id} holds what was sent`,
    );
  }
  return { games: gameIds.length, phasesProcessed, submissionsStored, acknowledged: acknowledged.length };
}
