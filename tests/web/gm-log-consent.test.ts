/**
 * The game master's log in words for the actions of handing a game on and making its result final, and for
 * actions a game master who plays carried out with the other players' consent ("agreed by …"), as the Game tab
 * shows them.
 */
import { describe, expect, it } from 'vitest';
import { flushSync, mount, unmount } from 'svelte';
import GamePanel from '../../web/src/game/GamePanel.svelte';
import { GameRoom } from '../../web/src/game/room.svelte.ts';
import { describeGmAction } from '../../web/src/game/gm-words.ts';
import { fixtureId as id, gameDetail } from './api-fixtures.ts';

const say = (action: string, details: Record<string, unknown>) => describeGmAction({ action, details }, (iso) => iso);

describe('handing the game on, and the result made final', () => {
  it('names who was asked, and from whom the game was taken over, where the game shows names', () => {
    expect(say('invite-game-master', { users: { invited: 'ptolemy' } })).toBe('Asked ptolemy to take over as game master.');
    expect(say('invite-game-master', {})).toBe('Asked another user to take over as game master.');
    expect(say('take-over', { users: { from: 'zeus', to: 'ptolemy' } })).toBe('Took over as game master from zeus.');
    expect(say('take-over', {})).toBe('Took over as game master.');
  });

  it('says what making the result final did', () => {
    expect(say('finalize', { outcome: { kind: 'draw', powers: ['Egypt', 'Rome'] } })).toBe(
      "Made the result final: the game's private press (and an anonymous game's players' names) is public now, and the game can no longer be re-opened.",
    );
  });
});

describe('an action carried out with the players’ consent', () => {
  it('says who agreed', () => {
    expect(say('process-now', { phaseName: 'Spring 240 BC Movement', next: 'Fall 240 BC Movement', consent: { agreed: ['Carthage', 'Egypt', 'Syria'] } })).toBe(
      'Processed Spring 240 BC Movement before its deadline; Fall 240 BC Movement began (agreed by Carthage, Egypt and Syria).',
    );
    expect(say('civil-disorder', { power: 'Syria', consent: { agreed: ['Egypt'] } })).toBe(
      'Put Syria in civil disorder: phases no longer wait for its orders (agreed by Egypt).',
    );
    // Nobody else was at the board to ask: nothing to add.
    expect(say('pause', { phaseName: 'X', consent: { agreed: [] } })).toBe('Paused the clock in X.');
  });

  it('is shown so in the Game tab', () => {
    const room = new GameRoom(gameDetail('Egypt', { gameMasterPlays: true }), () => id(2));
    room.log = [
      {
        id: id(6),
        action: 'process-now',
        actor: { id: id(9), username: 'zeus' },
        details: { phaseName: 'Spring 240 BC Movement', next: 'Fall 240 BC Movement', consent: { agreed: ['Carthage', 'Egypt', 'Macedonia', 'Syria'] } },
        at: '2026-01-01T10:00:00.000Z',
      },
    ];
    const target = document.createElement('div');
    document.body.appendChild(target);
    const panel = mount(GamePanel, { target, props: { room } });
    flushSync();
    expect(target.querySelector('.log [data-action="process-now"]')?.textContent).toBe(
      'Processed Spring 240 BC Movement before its deadline; Fall 240 BC Movement began (agreed by Carthage, Egypt, Macedonia and Syria).',
    );
    unmount(panel);
    target.remove();
  });
});
