import { SeatClient, HttpApi } from '@app/bot-kit';
import { CloseCode, WIRE_PROFILES, WireProfile } from '@app/protocol';

export interface BytesPerAnswer {
  readonly answers: number;
  readonly perAnswer: Record<WireProfile, number>;
}

function closedBeforePlay(code: number): string {
  if (code !== CloseCode.replaced) return `the server closed a socket with ${code} before the game started`;
  return `the server closed a socket with 4010: its SOCKETS_PER_SEAT is under ${WIRE_PROFILES.length}, the profiles each viewer holds side by side; start it with SOCKETS_PER_SEAT=${WIRE_PROFILES.length}`;
}

/**
 * Plays one trivia room on a running server with a host and `seats` players. Each viewer holds one
 * socket per profile, so every profile carries the same game, and each profile's sockets send an
 * equal share of the answers. It counts the bytes the host's and players' sockets received during
 * the play (from the start to the rematch vote), per answer.
 */
export async function measureBytesPerAnswer(baseUrl: string, seats = 4, questions = 6): Promise<BytesPerAnswer> {
  const api = new HttpApi(baseUrl);
  const room = await api.createRoom({ hostName: 'Host', questionCount: questions, secondsPerQuestion: 10, revealSeconds: 0 });
  const tokens = [room.hostToken];
  for (let i = 0; i < seats; i++) tokens.push((await api.join(room.code, `Player ${i + 1}`)).playerToken);
  const viewers: Record<WireProfile, SeatClient>[] = [];
  for (const token of tokens) {
    const sockets = {} as Record<WireProfile, SeatClient>;
    for (const wire of WIRE_PROFILES) {
      sockets[wire] = await SeatClient.connect(baseUrl, token, { wire, timeoutMs: 15_000 });
      await sockets[wire].nextEvent('room.state');
    }
    viewers.push(sockets);
  }
  const all = viewers.flatMap((v) => WIRE_PROFILES.map((w) => v[w]));
  // Each socket's ping reply comes after everything sent to it before, so once every reply is in,
  // the room is quiet. A socket that has closed by now would never answer; the seat's cap pushes out
  // the oldest socket with 4010.
  await Promise.all(
    all.map((c) => Promise.race([c.send('ping'), c.closed.then((closed) => Promise.reject(new Error(closedBeforePlay(closed.code))))])),
  );
  const from = new Map(all.map((c) => [c, c.frames.length]));
  const [host, ...players] = viewers;
  await host.json.send('room.start');
  let answers = 0;
  for (let q = 0; q < questions; q++) {
    const open = await host.json.nextEvent('question.open', (e) => e.data.index === q);
    await Promise.all(
      players.map((p, i) =>
        p[WIRE_PROFILES[(i + q) % WIRE_PROFILES.length]].send('room.answer', { question: q, choice: (i + q) % open.data.choices.length }),
      ),
    );
    answers += players.length;
    await host.json.nextEvent('question.closed', (e) => e.data.index === q);
  }
  await Promise.all(all.map((c) => c.nextEvent('rematch.open')));
  const perAnswer = {} as Record<WireProfile, number>;
  for (const wire of WIRE_PROFILES) {
    let bytes = 0;
    for (const v of viewers) {
      const c = v[wire];
      const end = c.decoded.findIndex((f) => f.type === 'rematch.open');
      for (const f of c.frames.slice(from.get(c), end + 1)) bytes += Buffer.byteLength(f);
    }
    perAnswer[wire] = Math.round((bytes / answers) * 10) / 10;
  }
  await api.request('DELETE', `/api/rooms/${room.code}`, undefined, { authorization: `Bearer ${room.hostToken}` });
  for (const c of all) c.close();
  return { answers, perAnswer };
}
