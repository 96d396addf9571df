/**
 * The odds of a contested sea before it is auto-resolved: MAX_ODDS_BATTLES computer battles of the sea's set-up on
 * seeded dice (shared/campaign/odds.ts), fought in the background by the computer's worker threads in chunks of about
 * two seconds' work a job, so that a player's computer opponent never waits long behind them; one chunk at a time on an
 * instance, whatever the number of seas asked for. After each chunk the progress is saved in `sea_battles.odds`
 * (`{ battles, of, won, drawn }`) and published (`sea.changed`); the estimate stops when the sea is no longer
 * undecided (fought, decided or waived).
 *
 * One estimate per sea: a second ask answers with the progress (202). A chunk is fought on the seed `odds:<sea's
 * row>:<battles counted before it>`, and saved only if the progress is still the one it was fought from: two
 * instances that both went on with a sea (each was asked, or both restarted) never count a battle twice, the slower
 * one's chunk is dropped and it stops. A restart resumes: each instance, once ready, goes on with the estimates left
 * unfinished in the database, from their saved progress.
 */
import type { FastifyBaseLogger } from 'fastify';
import type { Campaign, SeaOdds } from '../../shared/api/campaign.ts';
import type { LiveChannel } from '../../shared/api/live.ts';
import { MAX_ODDS_BATTLES } from '../../shared/campaign/odds.ts';
import { battleFromSea } from '../../shared/campaign/setups/index.ts';
import { RULESETS } from '../../shared/naval/index.ts';
import type { Auth } from '../auth/caller.ts';
import type { PrismaClient, Transaction } from '../db/database.ts';
import { gameOf } from '../db/tables/games.ts';
import { seaBattleOf, seaBattleValues, type SeaBattleRow } from '../db/tables/sea-battles.ts';
import { conflict, forbidden } from '../errors.ts';
import { withLockedGame } from '../play/context.ts';
import type { FastifyInstance } from 'fastify';
import { lockSeaBattle, seaForcesOf } from '../play/sea-battles.ts';
import { seaBattleAnswer, seaChangedEvent } from '../views/sea-battle.ts';
import { ComputerBusy } from './computer-pool.ts';
import type { SeaParams } from './from-sea.ts';
import type { BattleEnv } from './play.ts';

type User = Auth['user'];

export type SeaOddsOptions = {
  /** Battles an estimate fights in all. */
  battles: number;
  /**
   * The worker's time one job aims at: a chunk is sized from the battles' time so far (a Classis sea's battle takes
   * tens of milliseconds, a Diadochi Naval Rules fleet's seconds), so a player's computer move never waits long behind it.
   */
  chunkMs: number;
  /** The most battles one job fights (the first fights one, to measure). */
  maxChunk: number;
  /** Wait before trying again when the computer's queue is full. */
  busyRetryMs: number;
};
export const SEA_ODDS: SeaOddsOptions = { battles: MAX_ODDS_BATTLES, chunkMs: 2_000, maxChunk: 50, busyRetryMs: 2_000 };

/** Unfinished estimates an instance resumes when it starts (each goes on in turn). */
const RESUME_LIMIT = 100;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
const isFinished = (odds: SeaOdds) => odds.battles >= odds.of;

/** The sea's set-up for its game's ruleset, or null when it is no longer one the computer can fight. */
function setupOf(campaign: Campaign | null, row: SeaBattleRow): { ruleset: Campaign['ruleset']; setup: unknown; sides: string[] } | null {
  if (!campaign) return null;
  const forces = seaForcesOf(campaign, row);
  if (!forces.ok) return null;
  const setup = battleFromSea(campaign.ruleset, forces.value, row.contested.name);
  if (!setup.ok) return null;
  return { ruleset: campaign.ruleset, setup: setup.value, sides: RULESETS[campaign.ruleset].sides(setup.value).map((side) => side.id) };
}

async function publishSea(env: BattleEnv, tx: Transaction, row: SeaBattleRow, campaign: Campaign | null): Promise<void> {
  const phase = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true } });
  await env.play.bus.publish(tx, `game:${row.gameId}` as LiveChannel, seaChangedEvent(row.gameId, phase.index, row, { campaign }));
}

export class SeaOddsEstimates {
  /** Since start: chunks saved, chunks dropped (another instance saved first), estimates finished. */
  readonly stats = { chunks: 0, dropped: 0, finished: 0 };
  /** Seas (their rows' ids) this instance is estimating, in turn. */
  private readonly queue: string[] = [];
  /** The worker's time a battle of each sea took so far (its chunks are sized by it). */
  private readonly msPerBattle = new Map<string, number>();
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly prisma: PrismaClient,
    private readonly env: BattleEnv,
    private readonly log: FastifyBaseLogger,
    readonly options: SeaOddsOptions = SEA_ODDS,
  ) {}

  /** Goes on with the estimates left unfinished (a restart). */
  async resume(): Promise<void> {
    const rows = await this.prisma.$queryRaw<Array<{ id: string }>>`
      SELECT id::text AS id FROM sea_battles
      WHERE status = 'undecided' AND odds IS NOT NULL AND (odds->>'battles')::int < (odds->>'of')::int
      ORDER BY created_at LIMIT ${RESUME_LIMIT}`;
    for (const row of rows) this.enqueue(row.id);
  }

  /** Stops after the chunk under way (graceful shutdown); its result is still saved. */
  async stop(): Promise<void> {
    this.stopped = true;
    this.queue.length = 0;
    await this.running;
  }

  /** Whether the instance is at work on an estimate (tests wait for it). */
  get idle(): boolean {
    return this.running === null;
  }

  /**
   * Asked for the sea's odds (its game master, or a player of a power fighting there): starts the estimate unless
   * one was started (202 with the progress either way). 409 when the sea is no longer undecided.
   */
  async ask(app: FastifyInstance, user: User, params: SeaParams) {
    const answer = await withLockedGame(app, params.gameId, user, async (tx, context) => {
      const row = await lockSeaBattle(tx, params.gameId, params.index, params.sea);
      const fighting = row.contested.powers.includes(context.seat?.power ?? '');
      if (!context.isGameMaster && !fighting)
        throw forbidden('forbidden', `only the game master and the players of the powers fighting in ${row.contested.name} may ask for its odds`);
      if (row.status !== 'undecided') throw conflict('conflict', `${row.contested.name} is ${row.status}: its odds are no longer estimated`);
      const fight = setupOf(context.game.campaign, row);
      if (!fight) throw conflict('conflict', `${row.contested.name} cannot be fought yet: set the sides first (PUT …/sides)`);
      let after = row;
      if (row.odds === null) {
        const odds: SeaOdds = { battles: 0, of: this.options.battles, won: Object.fromEntries(fight.sides.map((side) => [side, 0])), drawn: 0 };
        after = seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: { ...seaBattleValues({ odds }) } }));
        await publishSea(this.env, tx, after, context.game.campaign);
      }
      return { row: after, answer: seaBattleAnswer(after, context.game) };
    });
    if (answer.row.odds && !isFinished(answer.row.odds)) this.enqueue(answer.row.id);
    return answer.answer;
  }

  private enqueue(rowId: string): void {
    if (this.stopped || this.queue.includes(rowId)) return;
    this.queue.push(rowId);
    this.running ??= this.work().finally(() => {
      this.running = null;
    });
  }

  /** One chunk at a time: the first sea in the queue, then it goes to the back while it is not finished. */
  private async work(): Promise<void> {
    while (!this.stopped && this.queue.length > 0) {
      const rowId = this.queue.shift()!;
      let more = false;
      try {
        more = await this.chunk(rowId);
      } catch (error) {
        if (error instanceof ComputerBusy) {
          more = true;
          await sleep(this.options.busyRetryMs);
        } else {
          // A fault of the computer's or the database's: this estimate stops where it is saved; a new ask resumes it.
          this.log.error({ err: error, seaBattleId: rowId }, 'estimating a sea battle’s odds failed');
        }
      }
      if (more && !this.stopped && !this.queue.includes(rowId)) this.queue.push(rowId);
      else if (!more) this.msPerBattle.delete(rowId);
    }
  }

  /** Fights the sea's next chunk and saves it; whether the estimate goes on. */
  private async chunk(rowId: string): Promise<boolean> {
    const stored = await this.prisma.seaBattle.findUnique({ where: { id: rowId } });
    if (!stored) return false;
    const row = seaBattleOf(stored);
    const before = row.odds;
    if (row.status !== 'undecided' || before === null || isFinished(before)) return false;
    const game = gameOf(await this.prisma.game.findUniqueOrThrow({ where: { id: row.gameId }, select: { id: true, campaign: true } }));
    const fight = setupOf(game.campaign, row);
    if (!fight) return false;
    const perBattle = this.msPerBattle.get(rowId);
    const sized = perBattle === undefined ? 1 : Math.floor(this.options.chunkMs / Math.max(perBattle, 1));
    const battles = Math.max(1, Math.min(sized, this.options.maxChunk, before.of - before.battles));
    const { value: fought, ms } = await this.env.computer.odds(fight.ruleset, fight.setup, battles, `odds:${row.id}:${before.battles}`);
    this.msPerBattle.set(rowId, ms / battles);
    return this.prisma.$transaction(async (tx) => {
      const locked = await tx.phase.findUniqueOrThrow({ where: { id: row.phaseId }, select: { index: true } });
      const now = await lockSeaBattle(tx, row.gameId, locked.index, row.sea);
      if (now.status !== 'undecided' || now.odds === null || now.odds.battles !== before.battles) {
        if (now.status === 'undecided') this.stats.dropped += 1;
        return false;
      }
      const won = { ...now.odds.won };
      for (const [side, count] of Object.entries(fought.won)) won[side] = (won[side] ?? 0) + count;
      const odds: SeaOdds = { battles: now.odds.battles + fought.battles, of: now.odds.of, won, drawn: now.odds.drawn + fought.drawn };
      const after = seaBattleOf(await tx.seaBattle.update({ where: { id: row.id }, data: { ...seaBattleValues({ odds }) } }));
      await publishSea(this.env, tx, after, game.campaign);
      this.stats.chunks += 1;
      if (isFinished(odds)) this.stats.finished += 1;
      return !isFinished(odds);
    });
  }
}
