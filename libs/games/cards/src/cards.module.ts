// The card practice table as the server registers it (PROTOCOL.md section 8). Its definition is in cards.game.ts.
export { cardsGame as cards } from './cards.game';
