import { createDeck } from './create-deck'
import type { CreatedDeck, DeckBody } from './deck-types'
import { replaceDeck } from './replace-deck'
import { downloadImage, uploadImage } from './upload-image'

/** Names a copy "Copy of" the deck's name, cut to the longest name a deck may have. */
export function copyName(name: string, max: number): string {
  return [...`Copy of ${name.trim()}`].slice(0, max).join('').trim()
}

type Question = DeckBody['questions'][number]

const imageOfQuestion = (q: Question): string | undefined => {
  const question: object = q
  return 'image' in question && typeof question.image === 'string' ? question.image : undefined
}

const withImage = (q: Question, image: string | undefined): Question => {
  const { image: _, ...rest } = q as Question & { image?: string }
  return (image ? { ...rest, image } : rest) as Question
}

/**
 * Creates a new deck with the same questions and its own edit token (POST /api/decks). Its
 * pictures are copies of the original's, uploaded to the new deck, and the deck is then PUT with
 * their ids. An image is deleted with its deck, so a copy that pointed at the original's pictures
 * would lose them when the original is deleted. `onCreated` is called with the new deck at once,
 * so its token is kept even if a picture then fails.
 */
export async function duplicateDeck(deck: DeckBody, maxName: number, onCreated: (deck: CreatedDeck) => void): Promise<CreatedDeck> {
  const created = await createDeck({ name: copyName(deck.name, maxName), questions: deck.questions.map((q) => withImage(q, undefined)) })
  onCreated(created)
  const originals = [...new Set(deck.questions.map(imageOfQuestion).filter((id): id is string => id !== undefined))]
  if (originals.length === 0) return created
  const copies = new Map<string, string>()
  for (const id of originals) copies.set(id, (await uploadImage(created.id, created.editToken, await downloadImage(id))).imageId)
  const questions = deck.questions.map((q) => {
    const id = imageOfQuestion(q)
    return withImage(q, id === undefined ? undefined : copies.get(id))
  })
  await replaceDeck(created.id, created.editToken, { name: created.name, questions })
  return created
}
