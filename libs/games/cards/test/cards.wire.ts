// What a card table's compact socket shows once decoded. It is written from PROTOCOL.md section 7
// rather than from the code table, so that the tests check the table against the contract.

export interface WireEvent {
  readonly type: string;
  readonly seq?: number;
  readonly data: unknown;
}

/**
 * Works out the events a compact socket of a card table decodes to, from the events its viewer's
 * JSON stream carries. A deal that tells this viewer nothing (`hole_cards.dealt` with `cards: null`)
 * is not sent, and neither is a `table.snapshot` identical to the last one sent. `seq` counts what
 * is sent.
 */
export function compactStreamOf(events: readonly WireEvent[]): { type: string; seq: number; data: unknown }[] {
  const out: { type: string; seq: number; data: unknown }[] = [];
  let lastSnapshot: string | undefined;
  for (const e of events) {
    if (e.type === 'hole_cards.dealt' && isObject(e.data) && e.data.cards === null) continue;
    if (e.type === 'table.snapshot' && isObject(e.data)) {
      // The server builds a snapshot's fields in one order, so two identical snapshots have the same JSON text.
      const text = JSON.stringify(e.data);
      if (text === lastSnapshot) continue;
      lastSnapshot = text;
    }
    out.push({ type: e.type, seq: out.length + 1, data: e.data });
  }
  return out;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
