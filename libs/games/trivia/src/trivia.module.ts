// This is trivia as the server registers it (PROTOCOL.md sections 2 and 3). Its definition is in
// trivia.game.ts.
export { triviaGame as trivia } from './trivia.game';
