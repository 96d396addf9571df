/** The game's votes on its clock (pause, resume, extend), as the server counts them (shared/api/clock-votes.ts). */
import type { ClockVotes } from '../../../shared/api/clock-votes.ts';
import { ApiError, api } from '../lib/api.ts';

/** What the clock votes need of the game's store (room.svelte.ts). */
export interface ClockVotesRoom {
  readonly id: string;
  failed(e: unknown): void;
}

export class ClockVoteBook {
  votes = $state.raw<ClockVotes | null>(null);

  constructor(private readonly room: ClockVotesRoom) {}

  async load(): Promise<void> {
    try {
      this.votes = await api.clockVotes.list(this.room.id);
    } catch (e) {
      if (!(e instanceof ApiError && (e.status === 409 || e.status === 404))) this.room.failed(e);
    }
  }

  /** Takes what an action answered (the votes as they stand after it). */
  set(votes: ClockVotes): void {
    this.votes = votes;
  }
}
