/** The label value of anything outside the server's vocabulary (PROTOCOL.md section 6). */
export const UNKNOWN_LABEL = 'unknown';

/**
 * The words the server may write into a label: the command types it handles and the event types
 * it sends. Label values never come from a client, so no client can grow /metrics or the admin
 * overview. Each game contributes its own types when the metrics are bound.
 */
export interface LabelVocabulary {
  readonly commands: ReadonlySet<string>;
  readonly events: ReadonlySet<string>;
}

/** Until the server binds its vocabulary, nothing is known, so every type counts as `unknown`. */
export const EMPTY_VOCABULARY: LabelVocabulary = { commands: new Set(), events: new Set() };

export function commandLabel(vocabulary: LabelVocabulary, type: string): string {
  return vocabulary.commands.has(type) ? type : UNKNOWN_LABEL;
}

/** An outbound frame's kind: `reply`, or an event type of the vocabulary. */
export function frameKindLabel(vocabulary: LabelVocabulary, kind: string): string {
  return kind === 'reply' || vocabulary.events.has(kind) ? kind : UNKNOWN_LABEL;
}
