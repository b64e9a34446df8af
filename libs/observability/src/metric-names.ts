/** The metric families of PROTOCOL.md section 6. The names are the contract. */
export const MetricName = {
  commandDuration: 'game_command_duration_seconds',
  mailboxWait: 'game_mailbox_wait_seconds',
  statementDuration: 'game_db_statement_duration_seconds',
  roundTrips: 'game_db_round_trips_total',
  poolAcquire: 'game_db_pool_acquire_seconds',
  poolConnections: 'game_db_pool_connections',
  poolMax: 'game_db_pool_max',
  roomsActive: 'game_rooms_active',
  socketsOpen: 'game_sockets_open',
  outboundBytes: 'game_ws_outbound_bytes_total',
  outboundFrames: 'game_ws_outbound_frames_total',
  evictions: 'game_ws_evictions_total',
  sendQueueBytes: 'game_ws_send_queue_bytes',
  sendQueueFrames: 'game_ws_send_queue_frames',
  buildInfo: 'game_build_info',
  limitRefusals: 'game_limit_refusals_total',
  refusalsRecorded: 'game_refused_commands_recorded_total',
  refusalsDropped: 'game_refused_commands_dropped_total',
  outcomesSettled: 'game_db_outcomes_settled_total',
  silentCloses: 'game_ws_silent_closes_total',
  roomFaults: 'game_room_faults_total',
  unhandledRejections: 'game_unhandled_rejections_total',
  retentionRemoved: 'game_retention_removed_total',
  retentionFailures: 'game_retention_failures_total',
  imageUploads: 'game_image_uploads_total',
  imageStoredBytes: 'game_image_stored_bytes_total',
} as const;

/**
 * The `outcome` label of `game_image_uploads_total` (PROTOCOL.md section 13, "Images"): stored, or
 * why not. `bad_type`: not PNG, JPEG or WebP (by its Content-Type or its bytes); `too_large`: a body
 * over 2 MiB; `bad_image`: it does not decode; `too_many_pixels`: more pixels than the server
 * decodes; `deck_full`: the deck holds as many images (or bytes) as it may; `busy`: this instance
 * was re-encoding as many images as it takes at once. Uploads refused by their address's rate are
 * counted as `game_limit_refusals_total{limit="image_rate"}` (the instance's: `instance_image_rate`).
 */
export const IMAGE_UPLOAD_OUTCOMES = ['stored', 'bad_type', 'too_large', 'bad_image', 'too_many_pixels', 'deck_full', 'busy'] as const;
export type ImageUploadOutcome = (typeof IMAGE_UPLOAD_OUTCOMES)[number];

/**
 * The `table` label of `game_retention_removed_total`: what the retention's pruning removed.
 * `room_decks` counts deck copies cleared from `rooms.deck`; the others count rows (`decks` and
 * `questions`: hosts' decks that no room used and nobody edited within their window;
 * `deck_images`: pictures taken out of their decks, or of deleted decks, that open rooms showed
 * until they closed).
 */
export const RETENTION_TABLES = [
  'room_journal',
  'room_snapshots',
  'room_decks',
  'finished_games',
  'rooms',
  'room_heads',
  'decks',
  'questions',
  'deck_images',
] as const;
export type RetentionTableName = (typeof RETENTION_TABLES)[number];

/**
 * The `outcome` label of `game_db_outcomes_settled_total`: what a room's statement whose answer was
 * lost turned out to be once the database was read. `unsettled` means the server stopped first.
 */
export const SETTLED_OUTCOMES = ['recorded', 'not_recorded', 'elsewhere', 'unsettled'] as const;

/**
 * The `reason` label of `game_refused_commands_dropped_total`: why a refused command was not
 * recorded for the console. Either the process's buffer was full, or its room had already used
 * its share of recorded refusals for the minute, or the statement that should have written it
 * failed.
 */
export const REFUSAL_DROPS = ['buffer_full', 'room_cap', 'write_failed'] as const;
export type RefusalDrop = (typeof REFUSAL_DROPS)[number];

/**
 * The `limit` label of `game_limit_refusals_total`: what a public service bounds (PROTOCOL.md
 * sections 11 and 14). Opening rooms and tables too fast from one address, a seat's socket past its cap
 * (the oldest one closed), an instance at its live-room cap, a `seed` on a server not started for
 * tests, and new work shed while the instance is overloaded, by the signal that sheds it. Per
 * address too: joins, deck writes (creation and import), room lookups and spectator seats minted;
 * a room's spectators past its cap, and a socket past the instance's cap. For the whole instance:
 * each of those surfaces past its budget (`instance_...`), and new anonymous work shed at the lower
 * event-loop mark (`overload_anonymous_event_loop_delay`).
 */
export const LIMITS = [
  'open_rate',
  'seat_sockets',
  'live_rooms',
  'test_seed',
  'overload_event_loop_delay',
  'overload_commit_wait',
  'overload_pool_wait',
  'join_rate',
  'deck_rate',
  'lookup_rate',
  'spectator_rate',
  'image_rate',
  'room_spectators',
  'instance_sockets',
  'instance_open_rate',
  'instance_join_rate',
  'instance_deck_rate',
  'instance_lookup_rate',
  'instance_spectator_rate',
  'instance_image_rate',
  'overload_anonymous_event_loop_delay',
] as const;
export type LimitName = (typeof LIMITS)[number];

/**
 * Latency buckets from 1 ms to 10 s, 25% apart from 5 ms to about 850 ms, so that a quantile is
 * never a guess across a wide bucket. (With a 250-500 ms bucket, the field report's median was 19%
 * off.)
 */
export const LATENCY_BUCKETS: readonly number[] = (() => {
  const buckets = [0.001, 0.002, 0.003, 0.004];
  for (let b = 0.005; b < 0.9; b *= 1.25) buckets.push(Number(b.toPrecision(4)));
  buckets.push(1, 1.25, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10);
  return buckets;
})();
