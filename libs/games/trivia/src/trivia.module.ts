import { GameModule } from '@app/room-engine';
import { triviaGame } from './trivia.game';
import { triviaLegacy } from './trivia.legacy';
import { TriviaState } from './trivia.types';

/** Trivia as the server registers it (PROTOCOL.md sections 2 and 3), with the rooms from before the journal. */
export const trivia: GameModule<TriviaState> = { ...triviaGame, legacy: triviaLegacy };
