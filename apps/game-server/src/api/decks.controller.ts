import { Body, Controller, Get, Post } from '@nestjs/common';
import { DeckRepository, NewQuestion } from '@app/persistence';
import { DescribeCreateDeck, DescribeListDecks } from './api-docs';
import { asObject, invalid, printable, wholeNumber } from './body';

const MAX_QUESTIONS = 500;

@Controller('api/decks')
export class DecksController {
  constructor(private readonly decks: DeckRepository) {}

  @Get()
  @DescribeListDecks()
  async list() {
    return { decks: await this.decks.listDecks() };
  }

  @Post()
  @DescribeCreateDeck()
  create(@Body() body: unknown) {
    const b = asObject(body);
    const name = printable(b.name, 'name', 64);
    if (!Array.isArray(b.questions) || b.questions.length < 1 || b.questions.length > MAX_QUESTIONS) {
      throw invalid('questions', `must be an array of 1 to ${MAX_QUESTIONS} questions`);
    }
    const questions = b.questions.map((raw, i): NewQuestion => {
      const q = asObject(raw, `questions[${i}]`);
      if (!Array.isArray(q.choices) || q.choices.length < 2 || q.choices.length > 6) {
        throw invalid(`questions[${i}].choices`, 'must be an array of 2 to 6 choices');
      }
      const choices = q.choices.map((c, j) => printable(c, `questions[${i}].choices[${j}]`, 120));
      if (new Set(choices).size !== choices.length) throw invalid(`questions[${i}].choices`, 'must all differ');
      return {
        text: printable(q.text, `questions[${i}].text`, 300),
        choices,
        correct: wholeNumber(q.correct, `questions[${i}].correct`, 0, choices.length - 1),
      };
    });
    return this.decks.createDeck(name, questions);
  }
}
