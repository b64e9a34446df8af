import { useEffect, useState } from 'react'
import { lateFrom } from '../../../lib/late-arrival'
import type { RoomView } from '../../../lib/room-view'

/** The question open (or just revealed) on this view, if any. */
function currentQuestion(view: RoomView): number | undefined {
  if (view.phase === 'question') return view.question?.index
  if (view.phase === 'reveal') return view.reveal?.index
  return undefined
}

/**
 * Whether this player took a seat during the game and the question on screen came before the
 * player's first question. A late arrival plays from the next question that opens
 * (docs/protocol.md section 13). The server says so by `from` on the seat when it gives one, and
 * by leaving the player out of a reveal's scores. Until then, the phone counts from the question
 * it found open when it joined (the join sets `joinedNow`). It keeps that question in the tab's
 * session, so that a reload says the same.
 */
export function useLateArrival(storageKey: string, view: RoomView | undefined, joinedNow: boolean): boolean {
  const fromKey = `${storageKey}:from`
  const [joinedFrom, setJoinedFrom] = useState<number | undefined>(() => {
    const kept = window.sessionStorage.getItem(fromKey)
    return kept === null ? undefined : Number(kept)
  })
  const [counted, setCounted] = useState(false)

  // The first view after the join and a new game are handled while rendering, as React advises.
  if (view && joinedNow && !counted) {
    setCounted(true)
    const at = currentQuestion(view)
    if (at !== undefined) setJoinedFrom(at + 1)
  }
  // A new game (a rematch's lobby) starts everybody from its first question.
  if (view?.phase === 'lobby' && joinedFrom !== undefined) setJoinedFrom(undefined)

  useEffect(() => {
    if (joinedFrom === undefined) window.sessionStorage.removeItem(fromKey)
    else window.sessionStorage.setItem(fromKey, String(joinedFrom))
  }, [joinedFrom, fromKey])

  if (!view) return false
  const at = currentQuestion(view)
  if (at === undefined) return false
  const me = view.players.find((p) => p.id === view.playerId)
  const from = (me && lateFrom(me)) ?? joinedFrom
  if (from !== undefined) return at < from
  // A reveal has a score for every player in the game. It has none for this player, who was not in
  // the game yet.
  return view.phase === 'reveal' && view.reveal !== undefined && !view.reveal.scores.some((s) => s.playerId === view.playerId)
}
