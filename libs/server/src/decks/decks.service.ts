import { Injectable } from '@nestjs/common';
import { DeckRepository, DeckSummary, NewQuestion, StoredDeck } from './deck.repository';
import { RoomException } from '@app/protocol';
import { DeckInput } from './deck-body';
import { deckCsv } from './deck-csv';
import { DeckErrorCode, deckError } from './deck.errors';
import { checkEditRight, hashEditToken, newEditToken } from './deck-token';

/** A new deck with its edit token. This is the only time the token is shown. */
export type CreatedDeck = DeckSummary & { readonly editToken: string };

/** The answer to `GET /api/decks/{id}`. Only the holder of the edit token gets the right answers (`correct`, `accepted`). */
export interface DeckView {
  readonly id: string;
  readonly name: string;
  readonly builtin: boolean;
  /** Whether the deck has an edit token at all. The built-in deck and decks made before tokens do not. */
  readonly editable: boolean;
  readonly questions: readonly NewQuestion[];
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Decks as hosts use them (PROTOCOL.md section 12). There are no accounts: holding a deck's edit token is the right to change it. */
@Injectable()
export class DecksService {
  constructor(private readonly decks: DeckRepository) {}

  /**
   * Returns a page of the decks this caller may see: the built-in ones and those whose edit tokens
   * the caller presents. Nobody can list another host's decks. `next` is the cursor of the next page,
   * if there is one.
   */
  async list(tokens: readonly string[], limit: number, cursor?: string): Promise<{ decks: DeckSummary[]; next: string | null }> {
    const rows = await this.decks.listDecks(tokens.map(hashEditToken), limit + 1, cursor);
    const decks = rows.slice(0, limit);
    return { decks, next: rows.length > limit ? decks[decks.length - 1].id : null };
  }

  async create(input: DeckInput): Promise<CreatedDeck> {
    const { token, hash } = newEditToken();
    return { ...(await this.decks.createDeck(input.name, input.questions, hash)), editToken: token };
  }

  /**
   * Reads a deck. A token, when sent, must be the deck's, so that a client holding a stale token is
   * told so rather than silently seeing no answers.
   */
  async read(id: string, token: string | undefined): Promise<DeckView> {
    const deck = token === undefined ? await this.found(id) : await this.editable(id, token);
    const answers = token !== undefined;
    return {
      id: deck.id,
      name: deck.name,
      builtin: deck.builtin,
      editable: deck.editTokenHash !== null,
      questions: deck.questions.map((q) => (answers ? q : withoutAnswers(q))),
    };
  }

  /** Exports the deck as CSV in the import's format. The file holds the right answers, so it needs the edit token. */
  async exportCsv(id: string, token: string | undefined): Promise<string> {
    return deckCsv((await this.editable(id, token)).questions);
  }

  /** Replaces the whole deck. A live game keeps the questions it already drew. */
  async replace(id: string, token: string | undefined, input: DeckInput): Promise<DeckSummary> {
    await this.editable(id, token);
    if (!(await this.decks.replaceDeck(id, input.name, input.questions))) throw this.notFound(id);
    return { id: id.toLowerCase(), name: input.name, builtin: false, questions: input.questions.length };
  }

  async remove(id: string, token: string | undefined): Promise<void> {
    await this.editable(id, token);
    if (!(await this.decks.deleteDeck(id))) throw this.notFound(id);
  }

  private async found(id: string): Promise<StoredDeck> {
    const deck = UUID.test(id) ? await this.decks.findDeck(id) : null;
    if (!deck) throw this.notFound(id);
    return deck;
  }

  /**
   * Checks that the deck exists (404 if not), then that it may be edited with this token (403 for a
   * deck nobody may edit, a missing token or the wrong one).
   */
  private async editable(id: string, token: string | undefined): Promise<StoredDeck> {
    const deck = await this.found(id);
    checkEditRight(deck, token);
    return deck;
  }

  private notFound(id: string): RoomException {
    return deckError(DeckErrorCode.DeckNotFound, `no deck has id ${id.slice(0, 40)}`);
  }
}

/** A question as anyone may read it: its kind, text, choices, time and picture, but not what is right. */
function withoutAnswers(q: NewQuestion): NewQuestion {
  const { correct: _correct, accepted: _accepted, ...open } = q;
  return open;
}
