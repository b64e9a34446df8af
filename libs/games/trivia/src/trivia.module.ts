// Trivia as the server registers it (PROTOCOL.md sections 2 and 3): its definition, trivia.game.ts.
export { triviaGame as trivia } from './trivia.game';
