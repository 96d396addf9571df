/** The draw votes and concessions of a game that goes on, as the server counts them. */
import { ApiError, api, type Votes } from '../lib/api.ts';

/** What the votes need of the game's store (room.svelte.ts). */
export interface VotesRoom {
  readonly id: string;
  failed(e: unknown): void;
}

export class Ballot {
  votes = $state.raw<Votes | null>(null);

  constructor(private readonly room: VotesRoom) {}

  async load(): Promise<void> {
    try {
      this.votes = await api.votes(this.room.id);
    } catch (e) {
      if (!(e instanceof ApiError && e.status === 409)) this.room.failed(e);
    }
  }
}
