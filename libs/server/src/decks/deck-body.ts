import { DeckBody, DeckImportQuery, readBody, readQuery } from '@app/protocol';
import { NewQuestion } from './deck.repository';

export interface DeckInput {
  readonly name: string;
  readonly questions: NewQuestion[];
}

/** Reads a deck's JSON body (`POST` and `PUT /api/decks`) with its schema. Each 400 names the offending field. */
export function readDeckBody(body: unknown): DeckInput {
  return readBody(DeckBody, body);
}

/** Reads the deck's name from `POST /api/decks/import?name=`. */
export function readDeckName(value: unknown): string {
  return readQuery(DeckImportQuery, { name: value }).name;
}
