import { CodeTable, CompactProfile, encodeCompactEvent, encodeCompactReply, ReplyFrame, WireMemory, WireProfile } from '@app/protocol';
import { OutboundEvent } from '@app/room-engine';

/**
 * The per-socket end of a wire profile. It turns the room's events and replies into this socket's
 * frames. The rules know nothing of it. The data it is given is already projected for the viewer,
 * so a profile can only leave out things that the viewer's JSON stream would carry.
 */
export class SocketEncoder {
  private readonly memory: WireMemory | undefined;

  constructor(
    readonly wire: WireProfile,
    codes: CodeTable,
  ) {
    if (wire !== 'json') this.memory = new WireMemory(codes, wire);
  }

  /**
   * The frame for `event` numbered `seq`, or null when this profile does not send it. The caller
   * then does not count it, because `seq` counts frames sent. An encoding is made once per group
   * of sockets whose profile and memory agree, and shared through the event's `encodings`.
   */
  event(event: OutboundEvent, seq: number): string | null {
    const memory = this.memory;
    if (!memory) {
      let json = event.encodings.get('json');
      if (json === undefined) event.encodings.set('json', (json = JSON.stringify(event.data)));
      return `{"type":${JSON.stringify(event.type)},"seq":${seq},"data":${json}}`;
    }
    memory.see(event.type);
    const key = `${this.wire}\u0003${memory.key(event.type, event.data)}`;
    let text = event.encodings.get(key);
    if (text === undefined)
      event.encodings.set(key, (text = encodeCompactEvent(this.wire as CompactProfile, memory, event.type, event.data)));
    if (text !== null) memory.remember(event.type, event.data);
    return text;
  }

  reply(reply: ReplyFrame): string {
    return this.memory ? encodeCompactReply(this.wire as CompactProfile, this.memory, reply) : JSON.stringify(reply);
  }
}
