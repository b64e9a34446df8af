import { commandLabel, EMPTY_VOCABULARY, frameKindLabel, LabelVocabulary } from './label-vocabulary';

describe('label vocabulary', () => {
  const vocabulary: LabelVocabulary = { commands: new Set(['ping']), events: new Set(['room.state']) };

  it("passes the server's own words through", () => {
    expect(commandLabel(vocabulary, 'ping')).toBe('ping');
    expect(frameKindLabel(vocabulary, 'room.state')).toBe('room.state');
    expect(frameKindLabel(vocabulary, 'reply')).toBe('reply');
  });

  it('turns anything else into `unknown`', () => {
    expect(commandLabel(vocabulary, 'evil.type.1')).toBe('unknown');
    expect(commandLabel(vocabulary, 'room.state')).toBe('unknown');
    expect(frameKindLabel(vocabulary, 'ping')).toBe('unknown');
  });

  it('knows nothing before the server binds its vocabulary', () => {
    expect(commandLabel(EMPTY_VOCABULARY, 'ping')).toBe('unknown');
    expect(frameKindLabel(EMPTY_VOCABULARY, 'reply')).toBe('reply');
  });
});
